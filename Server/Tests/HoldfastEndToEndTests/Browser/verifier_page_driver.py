# Drives headless Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: commands on fd 3,
# answers on fd 4, each a JSON text ended by a NUL byte): opens the verifier page, fills the form, starts a session,
# prints "URI <authorization request URI>", then waits for the page to show a final status and prints
# "RESULT <json>" with what the page shows. With "--returned SESSION_ID URL" in place of the key, query and protocol
# it plays a same-device wallet's return instead: the page's tab knows the session, the browser opens URL (the
# page with its response_code), and the result the page reads is printed the same way. With "--browser-api yes|no" it
# loads the page in a browser that has (yes) or has not (no) the Digital Credentials API — `DigitalCredential` defined
# or removed before the page's scripts run — and prints "MODE <json>": the browser choice's state and the note beside it.
# With "--digital KEY QUERY ANSWER_FILE" it plays the browser's wallet choice: `navigator.credentials.get` is replaced,
# before the page's scripts run, by one that prints "DIGITAL <json>" (the `digital` member the page passes) and
# resolves with the `{protocol, data}` written to ANSWER_FILE; then the result the page shows is printed as above.
import fcntl, json, os, subprocess, sys, tempfile, time

chromium, page = sys.argv[1:3]
returned = sys.argv[3] == "--returned"
browser_api = sys.argv[4] if sys.argv[3] == "--browser-api" else None
digital = sys.argv[3] == "--digital"
if returned:
    session_id, return_url = sys.argv[4:6]
elif digital:
    key, query, answer_file = sys.argv[4:7]
elif browser_api is None:
    key, query, protocol = sys.argv[3:6]
profile = tempfile.mkdtemp(prefix="holdfast-chromium-")
to_browser_r, to_browser_w = os.pipe()
from_browser_r, from_browser_w = os.pipe()
# The child's ends moved to 10 and above, so that putting them on 3 and 4 cannot overwrite one with the other.
def above_ten(descriptor):
    moved = fcntl.fcntl(descriptor, fcntl.F_DUPFD, 10)
    os.close(descriptor)
    return moved
to_browser_r, from_browser_w = above_ten(to_browser_r), above_ten(from_browser_w)

def child_setup():
    os.dup2(to_browser_r, 3)
    os.dup2(from_browser_w, 4)

browser = subprocess.Popen(
    [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
     "--no-default-browser-check", "--disable-extensions", "--remote-debugging-pipe", f"--user-data-dir={profile}",
     "about:blank"],
    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    preexec_fn=child_setup, pass_fds=(3, 4))
os.close(to_browser_r); os.close(from_browser_w)
writer = os.fdopen(to_browser_w, "wb", buffering=0)
reader = os.fdopen(from_browser_r, "rb", buffering=0)
pending = b""
next_id = 0

def send(method, params=None, session=None):
    global next_id, pending
    next_id += 1
    message = {"id": next_id, "method": method, "params": params or {}}
    if session: message["sessionId"] = session
    writer.write(json.dumps(message).encode() + b"\0")
    while True:
        while b"\0" not in pending:
            chunk = reader.read(65536)
            if not chunk: raise SystemExit("chromium closed the pipe")
            pending += chunk
        text, pending = pending.split(b"\0", 1)
        answer = json.loads(text)
        if answer.get("id") == next_id:
            if "error" in answer: raise SystemExit(f"{method}: {answer['error']}")
            return answer.get("result", {})

def evaluate(session, expression):
    result = send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True}, session)
    if "exceptionDetails" in result: raise SystemExit(f"page script failed: {result['exceptionDetails']}")
    return result.get("result", {}).get("value")

def wait_for(session, expression, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = evaluate(session, expression)
        if value: return value
        time.sleep(0.2)
    shown = evaluate(session, "document.getElementById('error')?.textContent")
    raise SystemExit(f"timed out waiting for {expression}: error shown: {shown}")

try:
    target = send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    send("Page.enable", session=session)
    if browser_api is not None:
        script = ("window.DigitalCredential = class DigitalCredential {};" if browser_api == "yes"
                  else "delete window.DigitalCredential; Object.defineProperty(window, 'DigitalCredential', {value: undefined});")
        send("Page.addScriptToEvaluateOnNewDocument", {"source": script}, session)
    if digital:
        send("Page.addScriptToEvaluateOnNewDocument", {"source": """
      window.DigitalCredential = class DigitalCredential {};
      Object.defineProperty(navigator.credentials, "get", { value: (options) => new Promise((resolve) => {
        window.__holdfastAsked = { mediation: options.mediation, digital: options.digital };
        window.__holdfastAnswer = resolve;
      }) });"""}, session)
    send("Page.navigate", {"url": page}, session)
    wait_for(session, "document.readyState === 'complete' && !!document.getElementById('start')", 30)
    if browser_api is not None:
        print("MODE " + evaluate(session, """JSON.stringify({
      disabled: document.querySelector('#mode option[value="dc-api"]').disabled,
      selected: document.getElementById('mode').value,
      note: document.getElementById('mode-note').hidden ? null : document.getElementById('mode-note').textContent })"""), flush=True)
        raise SystemExit(0)
    if digital:
        evaluate(session, f"""(() => {{
      document.getElementById('key').value = {json.dumps(key)};
      document.getElementById('query').value = {json.dumps(query)};
      document.getElementById('mode').value = 'dc-api';
      document.getElementById('begin').click();
      return true; }})()""")
        asked = wait_for(session, "window.__holdfastAsked ? JSON.stringify(window.__holdfastAsked) : ''", 30)
        print("DIGITAL " + asked, flush=True)
        deadline = time.time() + 90
        while not os.path.exists(answer_file):
            if time.time() > deadline: raise SystemExit("no answer was written")
            time.sleep(0.1)
        with open(answer_file) as handle: answer = json.load(handle)
        evaluate(session, f"window.__holdfastAnswer({json.dumps(answer)}); true")
    elif returned:
        evaluate(session, f"window.localStorage.setItem('holdfast.verifier.session', {json.dumps(session_id)}); true")
        send("Page.navigate", {"url": return_url}, session)
        wait_for(session, "document.readyState === 'complete' && !window.location.search", 30)
    else:
        evaluate(session, f"""(() => {{
      document.getElementById('key').value = {json.dumps(key)};
      document.getElementById('query').value = {json.dumps(query)};
      document.getElementById('protocol').value = {json.dumps(protocol)};
      document.getElementById('mode').value = 'cross-device';
      document.getElementById('begin').click();
      return true; }})()""")
        uri = wait_for(session, "document.getElementById('link').href.startsWith('openid4vp') || document.getElementById('link').href.startsWith('mdoc-openid4vp') ? document.getElementById('link').href : ''", 30)
        qr = wait_for(session, "(() => { const image = document.getElementById('qr'); return image.complete && image.naturalWidth > 0 ? image.naturalWidth : 0; })()", 30)
        print("URI " + uri, flush=True)
    status = wait_for(session, "(() => { const s = document.getElementById('status').textContent; return s !== 'pending' && s !== 'not started' ? s : ''; })()", 120)
    shown = evaluate(session, """JSON.stringify({
      status: document.getElementById('status').textContent,
      qrWidth: document.getElementById('qr').naturalWidth,
      claims: [...document.querySelectorAll('#claims tbody tr:not(.credential)')].map(row => [...row.children].map(cell => cell.textContent)),
      credentials: [...document.querySelectorAll('#claims tbody')].map(body => ({
        heading: body.querySelector('tr.credential')?.textContent,
        rows: [...body.querySelectorAll('tr:not(.credential)')].map(row => [...row.children].map(cell => cell.textContent)) })),
      failures: [...document.querySelectorAll('#failures li')].map(item => item.textContent),
      error: document.getElementById('error').hidden ? null : document.getElementById('error').textContent })""")
    print("RESULT " + shown, flush=True)
finally:
    try: send("Browser.close")
    except BaseException: pass
    try: browser.wait(timeout=10)
    except subprocess.TimeoutExpired: browser.kill()
