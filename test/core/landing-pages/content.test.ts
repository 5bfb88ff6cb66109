import test from "ava";
import { contentProblem, LANDING_PAGE_TEMPLATES, slugify, type LandingBlock, type LandingContent } from "../../../core/landing-pages/model.js";
import { templateContent } from "../../../core/landing-pages/templates.js";

const content = (blocks: LandingBlock[]): LandingContent => ({ version: 1, template: "from-scratch", seo: {}, theme: {}, blocks });
const footer: LandingBlock = { id: "f", type: "footer", slot: "footer", text: "©" };

test("every template starts as valid content with a footer, and a form block where it asks for signups", (t) => {
  for (const template of LANDING_PAGE_TEMPLATES) {
    const started = templateContent(template, "Acme");
    t.is(contentProblem(started), null, template);
    t.is(started.template, template);
    t.is(started.blocks.filter((block) => block.type === "form").length, template === "from-scratch" ? 0 : 1, template);
  }
  t.is(templateContent("newsletter", "Acme").blocks.at(-1)!.text, "© Acme");
});

test("content has exactly one footer block, in the footer slot, at most one form block and distinct block ids", (t) => {
  const heading: LandingBlock = { id: "h", type: "heading", slot: "hero", text: "Hi" };
  t.is(contentProblem(content([heading, footer])), null);
  t.is(contentProblem(content([heading])), "content.blocks must contain exactly one footer block");
  t.is(contentProblem(content([footer, { ...footer, id: "g" }])), "content.blocks must contain exactly one footer block");
  t.is(contentProblem(content([{ ...footer, slot: "body" }])), "the footer block must be in the footer slot");
  const form: LandingBlock = { id: "x", type: "form", slot: "form", formId: null };
  t.is(contentProblem(content([form, { ...form, id: "y" }, footer])), "content.blocks may contain at most one form block");
  t.is(contentProblem(content([heading, { ...heading }, footer])), "content.blocks must have distinct ids");
});

test("slugs are made of lower-case letters, digits and single hyphens", (t) => {
  t.is(slugify("  Spring Launch 2027!  "), "spring-launch-2027");
  t.is(slugify("Café -- Crème"), "cafe-creme");
  t.is(slugify("!!!"), "page");
  t.true(slugify("x".repeat(300)).length <= 80);
});
