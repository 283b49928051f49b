"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const store = window.sessionStorage;
  const api = (path, options = {}) => fetch(path, { cache: "no-store", ...options });
  let polling = null;

  function showError(text) {
    const error = $("error");
    error.textContent = text;
    error.hidden = false;
  }

  async function problem(response) {
    try {
      const body = await response.json();
      return `${response.status} ${body.code || body.error || ""}: ${body.detail || body.title || body.error_description || ""}`;
    } catch (_) {
      return `${response.status}`;
    }
  }

  // One entry per presented document (docs/server-api.md "Verifier": `credentials`); a result kept before there was
  // `credentials` has `claims` by docType only.
  function credentialsOf(result) {
    if (Array.isArray(result.credentials)) return result.credentials;
    return Object.entries(result.claims || {}).map(([docType, claims]) => ({ docType, claims }));
  }

  function render(result) {
    $("status").textContent = result.status;
    const table = $("claims");
    for (const old of table.querySelectorAll("tbody")) old.remove();
    credentialsOf(result).forEach((credential, index) => {
      // Each document in a body of its own, never merged with another of the same docType.
      const body = document.createElement("tbody");
      body.dataset.credential = String(index);
      const heading = document.createElement("tr");
      heading.className = "credential";
      const title = document.createElement("th");
      title.colSpan = 3;
      const about = [credential.credentialQueryId || credential.inputDescriptorId,
                     credential.issuer && `issued by ${credential.issuer.subject}`, credential.status].filter(Boolean).join(", ");
      title.textContent = `Credential ${index + 1}: ${credential.docType}${about ? ` (${about})` : ""}`;
      heading.append(title);
      body.append(heading);
      for (const [space, elements] of Object.entries(credential.claims || {})) {
        for (const [element, value] of Object.entries(elements)) {
          const row = document.createElement("tr");
          row.dataset.element = element;
          for (const text of [credential.docType, `${space} / ${element}`, typeof value === "string" ? value : JSON.stringify(value)]) {
            const cell = document.createElement("td");
            cell.textContent = text;
            row.append(cell);
          }
          body.append(row);
        }
      }
      table.append(body);
    });
    table.hidden = table.querySelector("tbody") === null;
    const failures = $("failures");
    failures.replaceChildren();
    for (const failure of result.failures || []) {
      const item = document.createElement("li");
      // Which requested credential and element the failure is about (docs/server-api.md "Verifier").
      const about = [failure.credentialQueryId || failure.inputDescriptorId, (failure.path || []).join(" / ")].filter(Boolean).join(", ");
      item.textContent = about ? `${failure.code} (${about}): ${failure.reason}` : `${failure.code}: ${failure.reason}`;
      if (failure.path) item.dataset.path = failure.path.join("/");
      failures.append(item);
    }
    failures.hidden = failures.children.length === 0;
  }

  async function poll(sessionId, key) {
    const response = await api(`/v2/presentations/sessions/${encodeURIComponent(sessionId)}/result`,
                               { headers: { Authorization: `Bearer ${key}` } });
    if (!response.ok) { showError(await problem(response)); return; }
    const result = await response.json();
    render(result);
    if (result.status === "pending") polling = setTimeout(() => poll(sessionId, key), 1000);
  }

  // The W3C Digital Credentials API (docs/server-api.md "Digital Credentials API"): a dc-api session for this page's
  // origin, its `digital` member handed to the browser, the wallet's DigitalCredential posted back, and the result read
  // once with the answer's response code.
  async function throughTheBrowser(key, query) {
    const response = await api("/v2/presentations/sessions", {
      method: "POST", body: JSON.stringify({ protocol: "dc-api", dcApi: { origins: [window.location.origin] }, query }),
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    });
    if (!response.ok) { showError(await problem(response)); return; }
    const created = await response.json();
    render({ status: "pending" });
    const credential = await navigator.credentials.get({ mediation: "required", digital: created.digital });
    const session = encodeURIComponent(created.sessionId);
    const answered = await api(`/v2/presentations/sessions/${session}/dc-api-response`, {
      method: "POST", body: JSON.stringify({ protocol: credential.protocol, data: credential.data }),
      headers: { "Content-Type": "application/json" },
    });
    if (!answered.ok) { showError(await problem(answered)); return; }
    const { responseCode } = await answered.json();
    const result = await api(`/v2/presentations/sessions/${session}/result?response_code=${encodeURIComponent(responseCode)}`);
    if (!result.ok) { showError(await problem(result)); return; }
    render(await result.json());
  }

  async function start(event) {
    event.preventDefault();
    clearTimeout(polling);
    $("error").hidden = true;
    $("request").hidden = true;
    const key = $("key").value.trim();
    store.setItem("holdfast.verifier.key", key);
    const option = $("query").selectedOptions[0];
    const elements = {};
    option.dataset.elements.split(",").forEach((element, index) => { elements[element] = index === 0; });
    const mode = $("mode").value;
    const query = { docType: option.dataset.docType, nameSpaces: { [option.dataset.namespace]: elements } };
    if (mode === "dc-api") { await throughTheBrowser(key, query); return; }
    const body = { protocol: $("protocol").value, mode, query };
    if (mode === "same-device") body.redirectUri = new URL("/verifier", window.location.href).href;
    const response = await api("/v2/presentations/sessions", {
      method: "POST", body: JSON.stringify(body),
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    });
    if (!response.ok) { showError(await problem(response)); return; }
    const created = await response.json();
    window.localStorage.setItem("holdfast.verifier.session", created.sessionId);
    $("uri").textContent = created.authorizationRequestUri;
    $("link").href = created.authorizationRequestUri;
    $("link").dataset.sessionId = created.sessionId;
    const qr = await api(`/v2/presentations/sessions/${encodeURIComponent(created.sessionId)}/qr`,
                         { headers: { Authorization: `Bearer ${key}` } });
    if (qr.ok) $("qr").src = URL.createObjectURL(await qr.blob());
    $("request").hidden = false;
    render({ status: "pending" });
    poll(created.sessionId, key);
  }

  // Back from a same-device wallet: the response_code reads the result once.
  async function returned(code) {
    const sessionId = window.localStorage.getItem("holdfast.verifier.session");
    window.history.replaceState(null, "", "/verifier");
    if (!sessionId) { showError("no session of this browser to read"); return; }
    const response = await api(`/v2/presentations/sessions/${encodeURIComponent(sessionId)}/result?response_code=${encodeURIComponent(code)}`);
    if (!response.ok) { showError(await problem(response)); return; }
    render(await response.json());
  }

  // Where the browser has no Digital Credentials API, its choice is offered disabled with the reason beside it.
  function offerTheBrowsersWallet() {
    if (typeof window.DigitalCredential !== "undefined" && navigator.credentials && navigator.credentials.get) return;
    const option = $("mode").querySelector('option[value="dc-api"]');
    option.disabled = true;
    if ($("mode").value === "dc-api") $("mode").value = "cross-device";
    const note = $("mode-note");
    note.textContent = "This browser has no Digital Credentials API (DigitalCredential is not defined): "
      + "a wallet on this device can answer through the link instead.";
    note.hidden = false;
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("key").value = store.getItem("holdfast.verifier.key") || "";
    offerTheBrowsersWallet();
    $("start").addEventListener("submit", (event) => { start(event).catch((error) => showError(String(error))); });
    const code = new URLSearchParams(window.location.search).get("response_code");
    if (code) returned(code).catch((error) => showError(String(error)));
  });
})();