import HTTPTypes
import HoldfastProtocol
import Hummingbird

/// The verifier's web page (README "Verifier page"): `GET /verifier` and its script and style sheet, served by the
/// tenant itself — no framework, nothing loaded from elsewhere (the Content-Security-Policy allows this origin
/// only). The page creates nothing on its own: the person types a key of scope `verifier` (or an admin key), and the
/// page calls the same API as any client: `POST /v2/presentations/sessions`, `GET …/qr` (the QR code, an SVG drawn
/// by the server), `GET …/result` until the wallet has answered. A same-device wallet is sent back to
/// `/verifier?response_code=…`, where the page reads the result with that code alone (OpenID4VP 1.0 §8.2).
struct VerifierPageController: HoldfastController {
    var routes: [Route] {
        [
            .public(.get, PresentationRoutes.Template.verifierPage) { _, _ in Self.response(Self.html, type: "text/html; charset=utf-8") },
            .public(.get, PresentationRoutes.Template.verifierScript) { _, _ in Self.response(Self.javaScript, type: "text/javascript; charset=utf-8") },
            .public(.get, PresentationRoutes.Template.verifierStyles) { _, _ in Self.response(Self.css, type: "text/css; charset=utf-8") },
        ]
    }

    static func response(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-cache"
        headers[.contentSecurityPolicy] = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
            + "connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"
        headers[.xContentTypeOptions] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// The queries a person can pick: (label, docType, namespace, elements). The first element of each is asked
    /// with intent to retain; the others without.
    static let queries: [(id: String, label: String, docType: String, nameSpace: String, elements: [String])] = [
        ("mdl-age", "Driving licence (mDL): name and age over 18", "org.iso.18013.5.1.mDL", "org.iso.18013.5.1",
         ["family_name", "given_name", "age_over_18"]),
        ("mdl-identity", "Driving licence (mDL): name, birth date and document number", "org.iso.18013.5.1.mDL",
         "org.iso.18013.5.1", ["family_name", "given_name", "birth_date", "document_number"]),
        ("pid-identity", "EU PID: name and birth date", "eu.europa.ec.eudi.pid.1", "eu.europa.ec.eudi.pid.1",
         ["family_name", "given_name", "birth_date"]),
    ]

    static var html: String {
        let options: String = queries.map { query -> String in
            let elements = query.elements.joined(separator: ",")
            return #"<option value="\#(query.id)" data-doc-type="\#(query.docType)" data-namespace="\#(query.nameSpace)" data-elements="\#(elements)">\#(query.label)</option>"#
        }.joined(separator: "\n          ")
        return """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Holdfast verifier</title>
        <link rel="stylesheet" href="\(PresentationRoutes.Template.verifierStyles)">
        <script src="\(PresentationRoutes.Template.verifierScript)" defer></script>
        </head>
        <body>
        <main>
        <h1>Verify a mobile credential</h1>
        <form id="start" autocomplete="off">
          <label>Verifier key
            <input id="key" name="key" type="password" placeholder="hfk_…" required>
            <small>A key of scope <code>verifier</code>: <code>holdfast admin keys create --name web --scope verifier</code>. Kept in this tab only.</small>
          </label>
          <label>What to ask for
            <select id="query" name="query">
          \(options)
            </select>
          </label>
          <label>Protocol
            <select id="protocol" name="protocol">
              <option value="openid4vp-1.0">OpenID4VP 1.0 (DCQL, HAIP)</option>
              <option value="18013-7-2024">ISO/IEC TS 18013-7:2024 Annex B</option>
            </select>
          </label>
          <label>Wallet on
            <select id="mode" name="mode">
              <option value="cross-device">another device (QR code)</option>
              <option value="same-device">this device (link)</option>
            </select>
          </label>
          <button id="begin" type="submit">Ask for the credential</button>
        </form>
        <section id="request" hidden>
          <h2>Scan with the wallet, or open the link on the phone</h2>
          <img id="qr" alt="QR code of the authorisation request" width="320" height="320">
          <p><a id="link" href="#">Open in the wallet</a></p>
          <p class="uri"><code id="uri"></code></p>
        </section>
        <section id="outcome" aria-live="polite">
          <p>Status: <strong id="status">not started</strong></p>
          <table id="claims" hidden><thead><tr><th>Document</th><th>Element</th><th>Value</th></tr></thead><tbody></tbody></table>
          <ul id="failures" hidden></ul>
          <p id="error" class="error" hidden></p>
        </section>
        </main>
        </body>
        </html>
        """
    }

    static let css = """
    body { font-family: system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1d232b; }
    main { max-width: 44rem; margin: 2rem auto; padding: 0 1rem; }
    form { display: grid; gap: 1rem; background: #fff; padding: 1.25rem; border-radius: 8px; border: 1px solid #d9dee5; }
    label { display: grid; gap: .35rem; font-weight: 600; }
    small { font-weight: 400; color: #59626e; }
    input, select, button { font: inherit; padding: .5rem; }
    button { background: #1f5fbf; color: #fff; border: 0; border-radius: 6px; cursor: pointer; }
    section { margin-top: 1.5rem; }
    #qr { background: #fff; border: 1px solid #d9dee5; image-rendering: pixelated; }
    .uri { word-break: break-all; font-size: .85rem; color: #59626e; }
    table { border-collapse: collapse; width: 100%; background: #fff; }
    th, td { text-align: left; border-bottom: 1px solid #e3e7ec; padding: .4rem .5rem; vertical-align: top; }
    .error { color: #a4161a; }
    """

    /// Every value the API returns is written with `textContent`, never parsed as HTML.
    static let javaScript = """
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

      function render(result) {
        $("status").textContent = result.status;
        const body = $("claims").querySelector("tbody");
        body.replaceChildren();
        for (const [docType, spaces] of Object.entries(result.claims || {})) {
          for (const [space, elements] of Object.entries(spaces)) {
            for (const [element, value] of Object.entries(elements)) {
              const row = document.createElement("tr");
              row.dataset.element = element;
              for (const text of [docType, `${space} / ${element}`, typeof value === "string" ? value : JSON.stringify(value)]) {
                const cell = document.createElement("td");
                cell.textContent = text;
                row.append(cell);
              }
              body.append(row);
            }
          }
        }
        $("claims").hidden = body.children.length === 0;
        const failures = $("failures");
        failures.replaceChildren();
        for (const failure of result.failures || []) {
          const item = document.createElement("li");
          // Which requested credential and element the failure is about (README "Verifier").
          const about = [failure.credentialQueryId || failure.inputDescriptorId, (failure.path || []).join(" / ")].filter(Boolean).join(", ");
          item.textContent = about ? `${failure.code} (${about}): ${failure.reason}` : `${failure.code}: ${failure.reason}`;
          if (failure.path) item.dataset.path = failure.path.join("/");
          failures.append(item);
        }
        failures.hidden = failures.children.length === 0;
      }

      async function poll(sessionId, key) {
        const response = await api(`\(PresentationRoutes.Template.sessions)/${encodeURIComponent(sessionId)}/result`,
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
        if (mode === "same-device") body.redirectUri = new URL("\(PresentationRoutes.Template.verifierPage)", window.location.href).href;
        const response = await api("\(PresentationRoutes.Template.sessions)", {
          method: "POST", body: JSON.stringify(body),
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        });
        if (!response.ok) { showError(await problem(response)); return; }
        const created = await response.json();
        window.localStorage.setItem("holdfast.verifier.session", created.sessionId);
        $("uri").textContent = created.authorizationRequestUri;
        $("link").href = created.authorizationRequestUri;
        $("link").dataset.sessionId = created.sessionId;
        const qr = await api(`\(PresentationRoutes.Template.sessions)/${encodeURIComponent(created.sessionId)}/qr`,
                             { headers: { Authorization: `Bearer ${key}` } });
        if (qr.ok) $("qr").src = URL.createObjectURL(await qr.blob());
        $("request").hidden = false;
        render({ status: "pending" });
        poll(created.sessionId, key);
      }

      // Back from a same-device wallet: the response_code reads the result once.
      async function returned(code) {
        const sessionId = window.localStorage.getItem("holdfast.verifier.session");
        window.history.replaceState(null, "", "\(PresentationRoutes.Template.verifierPage)");
        if (!sessionId) { showError("no session of this browser to read"); return; }
        const response = await api(`\(PresentationRoutes.Template.sessions)/${encodeURIComponent(sessionId)}/result?response_code=${encodeURIComponent(code)}`);
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
    """
}
