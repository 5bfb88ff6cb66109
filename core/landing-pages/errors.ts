import { conflict, notFound } from "../shared/errors.js";

export const LANDING_PAGE_NOT_FOUND = notFound("Landing page not found");
export const slugTaken = (slug: string) => conflict(`A landing page with the slug '${slug}' already exists`);
