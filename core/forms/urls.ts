/** Where a form is posted and its script served (spec: `{base_url}/api/v1/forms/<form_id>`, scriptUrl appends `/embed.js`). */
export const formActionUrl = (baseUrl: string, formId: string): string => `${baseUrl}/api/v1/forms/${encodeURIComponent(formId)}`;
export const formScriptUrl = (baseUrl: string, formId: string): string => `${formActionUrl(baseUrl, formId)}/embed.js`;
