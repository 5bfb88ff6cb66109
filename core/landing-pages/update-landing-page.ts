import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, type Result } from "../shared/result.js";
import type { UpdateLandingPageCommand } from "./commands.js";
import type { LandingPageEdits } from "./landing-page-edits.js";
import type { LandingPageView } from "./view.js";

/** PUT /landing-pages/{id}: at least one of name, slug and content. */
export class UpdateLandingPage {
  constructor(private readonly edits: LandingPageEdits) {}

  execute = async (actor: Actor, landingPageId: string, input: UpdateLandingPageCommand): Promise<Result<LandingPageView>> => {
    if (input.name === undefined && input.slug === undefined && input.content === undefined)
      return fail(badRequest("Provide at least one of name, slug or content"));
    return this.edits.apply(actor, landingPageId, input);
  };
}
