import { TRACKING_SCRIPT_PATH } from "./model.js";

/** The commands of the tracking script (spec, Events 3), in the order the snippet defines them. */
export const BROWSER_COMMANDS = [
  "identify",
  "track",
  "viewedProduct",
  "addedToCart",
  "removedFromCart",
  "viewedCart",
  "viewedCollection",
  "searched",
  "page",
  "reset",
] as const;
export type BrowserCommand = (typeof BROWSER_COMMANDS)[number];

/** The global the snippet defines and the script takes over: `window.lifecycle.track(...)`. */
export const TRACKING_GLOBAL = "lifecycle";

const attribute = (value: string): string => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The HTML a site pastes into its pages (spec, Web tracking keys): (1) a script defining the
 * global command queue, so calls made before the tracking script arrives are kept in order, and
 * (2) the async loader of the script with the public key, the company and the endpoint origin.
 */
export function installSnippet(baseUrl: string, publicKey: string, companyId: string): string {
  const methods = BROWSER_COMMANDS.map((command) => `"${command}"`).join(",");
  const queue =
    `window.${TRACKING_GLOBAL}=window.${TRACKING_GLOBAL}||(function(){var q=[],t={q:q};` +
    `[${methods}].forEach(function(m){t[m]=function(){q.push([m].concat([].slice.call(arguments)))}});return t})();`;
  const loader =
    `<script async src="${attribute(baseUrl + TRACKING_SCRIPT_PATH)}" data-public-key="${attribute(publicKey)}" ` +
    `data-company-id="${attribute(companyId)}" data-endpoint-origin="${attribute(baseUrl)}"></script>`;
  return `<script>${queue}</script>\n${loader}`;
}
