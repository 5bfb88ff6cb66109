import type { Actor } from "../shared/actor.js";
import type { Result } from "../shared/result.js";
import type { UpdateLandingPageCommand } from "./commands.js";
import type { LandingPageEdits } from "./landing-page-edits.js";
import type { LandingPageView } from "./view.js";

/** POST /landing-pages/{id}/unpublish: a draft again; its publicUrl answers 404 at once. */
export class UnpublishLandingPage {
  constructor(private readonly edits: LandingPageEdits) {}

  execute = (actor: Actor, landingPageId: string, input: UpdateLandingPageCommand): Promise<Result<LandingPageView>> =>
    this.edits.apply(actor, landingPageId, input, "draft");
}
