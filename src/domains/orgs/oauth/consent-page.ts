import type { AuthorizeRequest } from './flow.service.js';

/*
 * The consent page of GET /api/oauth/authorize: a plain server-rendered form. Gatehouse has no passwords, so
 * the user signs in with one of their API keys; the form posts back to /api/oauth/authorize, which answers
 * with a redirect to the application's redirect URI carrying the code (or error=access_denied).
 */

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c]!);

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)} · Gatehouse</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}label,input,button{display:block;margin:.5rem 0}input{width:100%}button{display:inline-block;margin-right:1rem}</style>
</head>
<body>${body}</body>
</html>`;
}

export function consentPage(application: { name: string; contactEmail: string | null }, request: AuthorizeRequest, scope: string, message?: string): string {
  const hidden = {
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    response_type: request.responseType,
    state: request.state ?? '',
    code_challenge: request.codeChallenge,
    code_challenge_method: request.codeChallengeMethod,
    scope,
  };
  const fields = Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('\n');
  const contact = application.contactEmail ? ` (contact: ${escapeHtml(application.contactEmail)})` : '';
  return page(
    'Authorize',
    `<h1>Authorize ${escapeHtml(application.name)}</h1>
<p>${escapeHtml(application.name)}${contact} asks to act for you with these scopes: <strong>${escapeHtml(scope)}</strong>.</p>
${message ? `<p role="alert">${escapeHtml(message)}</p>` : ''}
<form method="post" action="/api/oauth/authorize">
${fields}
<label for="apiKey">Sign in with your API key</label>
<input id="apiKey" name="apiKey" type="password" autocomplete="off" required>
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</form>`,
  );
}

/** An authorization request that cannot be answered at the redirect URI (unknown client, wrong redirect URI). */
export function errorPage(error: string, description: string): string {
  return page('Authorization error', `<h1>Authorization error</h1><p><code>${escapeHtml(error)}</code>: ${escapeHtml(description)}</p>`);
}
