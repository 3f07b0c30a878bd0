// A local stand-in for Google's OAuth 2.0 endpoints, for browser tests: an account chooser at /authorize (a
// consent page for the Gmail sending permission), a token endpoint that checks the client and PKCE verifier and
// refreshes Gmail grants, /userinfo by bearer token, and the Gmail API's send call, which keeps what it is sent.
import { createHash } from "node:crypto";
import { createServer } from "node:http";

export const CLIENT_ID = "e2e-client";
export const CLIENT_SECRET = "e2e-secret";
const GMAIL_SEND = "https://www.googleapis.com/auth/gmail.send";
const GMAIL_SEND_AND_READ = `${GMAIL_SEND} https://www.googleapis.com/auth/gmail.readonly`;

/** Starts the provider on a free loopback port with the given accounts ({ key, email, given, family }). */
export async function startFakeGoogle(accounts) {
  const challenges = new Map(); // code → PKCE challenge of the sign-in it answers
  const gmailMessages = [];
  const granted = new Map(); // authorization code → the Gmail scopes consented to // raw RFC 5322 messages sent through the Gmail API
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, "http://127.0.0.1");
    const gmailScope = url.searchParams.get("scope");
    if (request.method === "GET" && url.pathname === "/authorize" && (gmailScope === GMAIL_SEND || gmailScope === GMAIL_SEND_AND_READ)) {
      const redirect = url.searchParams.get("redirect_uri");
      const state = url.searchParams.get("state");
      const valid = url.searchParams.get("client_id") === CLIENT_ID && url.searchParams.get("access_type") === "offline" &&
        url.searchParams.get("prompt") === "consent" && url.searchParams.get("code_challenge_method") === "S256";
      if (!valid || !redirect || !state) return send(response, 400, "text/plain", "invalid authorization request");
      const code = `gmail-${Math.random().toString(36).slice(2)}`;
      challenges.set(code, url.searchParams.get("code_challenge"));
      granted.set(code, gmailScope);
      const hint = url.searchParams.get("login_hint") ?? "";
      const allow = `${redirect}?code=${code}&state=${encodeURIComponent(state)}`;
      const deny = `${redirect}?error=access_denied&state=${encodeURIComponent(state)}`;
      const asks = gmailScope === GMAIL_SEND ? `send email as ${hint}` : `send and read email of ${hint}`;
      return send(response, 200, "text/html", `<h1>Outreach wants to ${asks}</h1><a href="${allow}">Allow</a> <a href="${deny}">Cancel</a>`);
    }
    if (request.method === "GET" && url.pathname === "/authorize") {
      const redirect = url.searchParams.get("redirect_uri");
      const state = url.searchParams.get("state");
      const valid =
        url.searchParams.get("client_id") === CLIENT_ID &&
        url.searchParams.get("response_type") === "code" &&
        url.searchParams.get("code_challenge_method") === "S256" &&
        url.searchParams.get("scope") === "openid email profile";
      if (!valid || !redirect || !state) return send(response, 400, "text/plain", "invalid authorization request");
      const links = accounts.map((account) => {
        const code = `code-${account.key}-${Math.random().toString(36).slice(2)}`;
        challenges.set(code, url.searchParams.get("code_challenge"));
        const target = `${redirect}?code=${code}&state=${encodeURIComponent(state)}`;
        return `<li><a href="${target}">${account.given} ${account.family}</a></li>`;
      });
      const deny = `${redirect}?error=access_denied&state=${encodeURIComponent(state)}`;
      return send(response, 200, "text/html", `<h1>Choose an account</h1><ul>${links.join("")}</ul><a href="${deny}">Cancel</a>`);
    }
    if (request.method === "POST" && url.pathname === "/token") {
      const form = new URLSearchParams(await body(request));
      const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`;
      const code = form.get("code") ?? "";
      const challenge = challenges.get(code);
      const verifier = form.get("code_verifier") ?? "";
      const verified = challenge && createHash("sha256").update(verifier).digest("base64url") === challenge;
      if (form.get("grant_type") === "refresh_token" && form.get("client_id") === CLIENT_ID && form.get("refresh_token")?.startsWith("refresh-gmail-")) {
        return send(response, 200, "application/json", JSON.stringify({ access_token: "gmail-access", token_type: "Bearer", expires_in: 3599 }));
      }
      if (code.startsWith("gmail-") && verified) {
        challenges.delete(code);
        return send(response, 200, "application/json", JSON.stringify({ access_token: "gmail-access", token_type: "Bearer", expires_in: 3599, refresh_token: `refresh-${code}`, scope: granted.get(code) }));
      }
      if (request.headers.authorization !== basic || form.get("grant_type") !== "authorization_code" || !verified) {
        return send(response, 400, "application/json", JSON.stringify({ error: "invalid_grant" }));
      }
      challenges.delete(code);
      const key = code.split("-")[1];
      return send(response, 200, "application/json", JSON.stringify({ access_token: `token-${key}`, token_type: "Bearer", expires_in: 3599 }));
    }
    if (request.method === "POST" && url.pathname === "/gmail/v1/users/me/messages/send") {
      if (request.headers.authorization !== "Bearer gmail-access") return send(response, 401, "application/json", JSON.stringify({ error: { code: 401 } }));
      const raw = JSON.parse(await body(request)).raw;
      gmailMessages.push(Buffer.from(raw, "base64url").toString("utf8"));
      return send(response, 200, "application/json", JSON.stringify({ id: `gm-${gmailMessages.length}` }));
    }
    // Reading a mailbox (with the read permission): its history id, and no new mail since.
    if (request.method === "GET" && ["/gmail/v1/users/me/profile", "/gmail/v1/users/me/history"].includes(url.pathname)) {
      if (request.headers.authorization !== "Bearer gmail-access") return send(response, 401, "application/json", JSON.stringify({ error: { code: 401 } }));
      return send(response, 200, "application/json", JSON.stringify({ historyId: "1" }));
    }
    if (request.method === "GET" && url.pathname === "/userinfo") {
      const key = (request.headers.authorization ?? "").replace("Bearer token-", "");
      const account = accounts.find((candidate) => candidate.key === key);
      if (!account) return send(response, 401, "application/json", JSON.stringify({ error: "invalid_token" }));
      return send(response, 200, "application/json", JSON.stringify({
        sub: `sub-${key}`, email: account.email, email_verified: true, given_name: account.given, family_name: account.family,
      }));
    }
    send(response, 404, "text/plain", "not found");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, gmailMessages, close: () => new Promise((resolve) => server.close(resolve)) };
}

function send(response, status, type, text) {
  response.writeHead(status, { "content-type": type });
  response.end(text);
}

function body(request) {
  return new Promise((resolve) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => resolve(text));
  });
}
