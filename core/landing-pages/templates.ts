import { CONTENT_VERSION, type LandingBlock, type LandingContent, type LandingPageTemplate } from "./model.js";

interface Starter {
  readonly headline: string;
  readonly intro: string;
  readonly points?: readonly string[];
  readonly withForm: boolean;
}

/** The words each template starts with; the company edits them (PUT) before publishing. */
const STARTERS: Record<LandingPageTemplate, Starter> = {
  "from-scratch": { headline: "Your headline", intro: "Say what this page is about.", withForm: false },
  waitlist: { headline: "Join the waitlist", intro: "Be the first to know when we launch.", withForm: true },
  "lead-magnet": {
    headline: "Get the free guide",
    intro: "Leave your email and we will send it right over.",
    points: ["Practical tips", "Ready-made checklists"],
    withForm: true,
  },
  launch: { headline: "Something new is here", intro: "See what we have been building.", withForm: true },
  "demo-request": { headline: "See it in action", intro: "Book a short demo with our team.", withForm: true },
  webinar: { headline: "Save your seat", intro: "Join our live session and bring your questions.", withForm: true },
  newsletter: { headline: "Get our newsletter", intro: "One useful email a week. Unsubscribe any time.", withForm: true },
  "product-hunt": { headline: "We are live on Product Hunt", intro: "Get launch-day perks by signing up.", withForm: true },
  "pricing-offer": { headline: "A special offer", intro: "Sign up to claim your discount.", points: ["Limited time", "No card needed"], withForm: true },
  "agency-lead-gen": { headline: "Grow with our team", intro: "Tell us where to reach you and we will get in touch.", withForm: true },
  "feature-announcement": { headline: "Meet our newest feature", intro: "Here is what it does for you.", points: ["Faster", "Simpler"], withForm: true },
};

/** The content a new page starts with: a hero, the template's words, a form block (no form chosen yet) where it asks for one, a footer. */
export function templateContent(template: LandingPageTemplate, companyName: string): LandingContent {
  const starter = STARTERS[template];
  const blocks: LandingBlock[] = [
    { id: "hero-heading", type: "heading", slot: "hero", text: starter.headline },
    { id: "hero-text", type: "text", slot: "hero", text: starter.intro },
    ...(starter.points ? [{ id: "body-list", type: "list" as const, slot: "body" as const, items: starter.points }] : []),
    ...(starter.withForm ? [{ id: "signup-form", type: "form" as const, slot: "form" as const, formId: null }] : []),
    { id: "footer", type: "footer", slot: "footer", text: `© ${companyName}` },
  ];
  return { version: CONTENT_VERSION, template, seo: { title: starter.headline, description: starter.intro }, theme: {}, blocks };
}
