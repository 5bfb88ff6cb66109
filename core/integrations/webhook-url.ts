import type { Provider } from "./model.js";

/** Where the provider posts its webhooks (spec: `{base_url}/api/webhooks/<provider>/<company_id>`). */
export const integrationWebhookUrl = (baseUrl: string, provider: Provider, companyId: string): string =>
  `${baseUrl}/api/webhooks/${provider}/${encodeURIComponent(companyId)}`;
