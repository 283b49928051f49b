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

  async function start(event) {
    event.preventDefault();
    clearTimeout(polling);
    $("error").hidden = true;
    const key = $("key").value.trim();
    store.setItem("holdfast.verifier.key", key);
    const option = $("query").selectedOptions[0];
    const elements = {};
    option.dataset.elements.split(",").forEach((element, index) => { elements[element] = index === 0; });
    const mode = $("mode").value;
    const body = {
      protocol: $("protocol").value, mode,
      query: { docType: option.dataset.docType, nameSpaces: { [option.dataset.namespace]: elements } },
    };
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

  document.addEventListener("DOMContentLoaded", () => {
    $("key").value = store.getItem("holdfast.verifier.key") || "";
    $("start").addEventListener("submit", (event) => { start(event).catch((error) => showError(String(error))); });
    const code = new URLSearchParams(window.location.search).get("response_code");
    if (code) returned(code).catch((error) => showError(String(error)));
  });
})();