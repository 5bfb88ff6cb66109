import { engine, parse } from "./tracking-pages.js";

const thanks = parse(`<h1>{{ heading }}</h1>
<p role="status">{{ message }}</p>`);

const problem = parse(`<h1>{{ heading }}</h1>
<p role="alert">{{ message }}</p>
<p>Go back to the form to try again.</p>`);

/** What a plain HTML post of a form shows on success (a form with a redirect sends the visitor there instead). */
export const formThanksPage = (message: string): string => engine.renderSync(thanks, { title: "Thank you", heading: "Thank you", message }) as string;

/** What a plain HTML post shows when the signup could not be taken (a bad address, a form gone, too many tries). */
export const formProblemPage = (heading: string, message: string): string => engine.renderSync(problem, { title: heading, heading, message }) as string;
