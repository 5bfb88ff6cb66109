import * as t from "io-ts";
import { Id, JsonObject, NullableTimestamp, Timestamp, view } from "../shared/view-fields.js";
import type { LandingPage } from "./model.js";
import type { LandingPageLinks } from "./page-links.js";

/** The landing page record (spec, Landing page). */
export const LandingPageView = view(
  {
    id: Id,
    companyId: t.string,
    name: t.string,
    slug: t.string,
    status: t.string,
    content: JsonObject,
    viewCount: t.number,
    conversionCount: t.number,
    publishedAt: NullableTimestamp,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    url: t.string,
    appPublicUrl: t.string,
    publicUrl: t.string,
    previewUrl: t.string,
  },
  "LandingPage",
);
export type LandingPageView = t.TypeOf<typeof LandingPageView>;

export const toLandingPageView = (page: LandingPage, links: LandingPageLinks): LandingPageView => ({
  id: page.id,
  companyId: page.companyId,
  name: page.name,
  slug: page.slug,
  status: page.status,
  content: page.content as unknown as Record<string, unknown>,
  viewCount: page.viewCount,
  conversionCount: page.conversionCount,
  publishedAt: page.publishedAt ? page.publishedAt.toISOString() : null,
  createdAt: page.createdAt.toISOString(),
  updatedAt: page.updatedAt.toISOString(),
  ...links.of(page),
});
