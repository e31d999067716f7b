// The trace page in a real browser: Debian's chromium, headless, driven through the DevTools
// protocol over a pipe (--remote-debugging-pipe: no port, no npm package).
//
//   node trace_page_test.mjs <miniaten_trace> <source dir> <artifact dir>
//
// For each example (the seeds' pages, the seeds and README scripts, every README
// `$ miniaten_trace` line that runs a script) it writes the page with --html and checks that
//   - the page's statements, call rows (with their depth) and result rows are the text trace's
//     lines, one for one, in order;
//   - every TensorIterator row, selected, shows the coalesced shape and perm_ its text line says;
// and on the transposed-contiguous page that selecting an element of the transposed view lights
// the storage cell its strides give (offset + sum of index * stride), holding the element's
// value. Screenshots stay in the artifact dir. Exits 77 (CTest's skip) without chromium.
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const [tool, srcDir, outDir] = process.argv.slice(2);
if (!tool || !srcDir || !outDir) {
  console.error("usage: node trace_page_test.mjs <miniaten_trace> <source dir> <artifact dir>");
  process.exit(2);
}
const browserPath = [process.env.CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser",
                     "/usr/bin/google-chrome"].find((p) => p && fs.existsSync(p));
if (!browserPath) {
  console.log("SKIP: no chromium found (tools/scripts/setup.sh installs Debian's chromium)");
  process.exit(77);
}
fs.mkdirSync(outDir, { recursive: true });

// ---- the DevTools protocol over a pipe ------------------------------------------------------
class Browser {
  constructor(executable, profile) {
    this.proc = spawn(executable, ["--headless=new", "--no-sandbox", "--disable-gpu",
      "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
      "--allow-file-access-from-files", `--user-data-dir=${profile}`, "about:blank"],
      { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
    this.next = 1;
    this.pending = new Map();
    this.waiters = [];
    this.stderr = "";
    this.proc.stderr.on("data", (d) => { this.stderr += d; });
    let buffer = "";
    this.proc.stdio[4].on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      let end;
      while ((end = buffer.indexOf("\0")) >= 0) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.id && this.pending.has(message.id)) {
          const { resolve, reject } = this.pending.get(message.id);
          this.pending.delete(message.id);
          if (message.error) reject(new Error(JSON.stringify(message.error)));
          else resolve(message.result);
        } else if (message.method) {
          this.waiters = this.waiters.filter((w) => !w(message));
        }
      }
    });
    this.exited = new Promise((resolve) => this.proc.on("exit", resolve));
  }
  send(method, params = {}, sessionId) {
    const id = this.next++;
    const message = { id, method, params };
    if (sessionId) message.sessionId = sessionId;
    this.proc.stdio[3].write(JSON.stringify(message) + "\0");
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      setTimeout(() => reject(new Error(`${method} timed out; chromium said:\n${this.stderr}`)), 60000);
    });
  }
  event(method, sessionId) {
    return new Promise((resolve) => this.waiters.push((m) => {
      if (m.method !== method || (sessionId && m.sessionId !== sessionId)) return false;
      resolve(m.params);
      return true;
    }));
  }
  async close() {
    try { await this.send("Browser.close"); } catch (e) { this.proc.kill(); }
    await this.exited;
  }
}

class Tab {
  static async open(browser) {
    const { targetId } = await browser.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await browser.send("Target.attachToTarget", { targetId, flatten: true });
    const tab = new Tab(browser, sessionId);
    await tab.send("Page.enable");
    await tab.send("Runtime.enable");
    await tab.send("Emulation.setDeviceMetricsOverride",
                   { width: 1400, height: 1000, deviceScaleFactor: 1, mobile: false });
    return tab;
  }
  constructor(browser, sessionId) { this.browser = browser; this.sessionId = sessionId; }
  send(method, params) { return this.browser.send(method, params, this.sessionId); }
  async load(file) {
    const loaded = this.browser.event("Page.loadEventFired", this.sessionId);
    await this.send("Page.navigate", { url: "file://" + path.resolve(file) });
    await loaded;
    const ready = await this.eval("document.documentElement.dataset.ready === 'true'");
    if (!ready) throw new Error(`${file}: the page's script did not finish (data-ready unset)`);
  }
  async eval(expression) {
    const r = await this.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) {
      throw new Error(`in the page: ${r.exceptionDetails.exception?.description || r.exceptionDetails.text}`);
    }
    return r.result.value;
  }
  async screenshot(file) {
    const { data } = await this.send("Page.captureScreenshot", { format: "png" });
    fs.writeFileSync(file, Buffer.from(data, "base64"));
  }
}

// ---- what the text trace says ---------------------------------------------------------------
// Statement lines, trace lines (two spaces, then two per depth) and result lines, in order.
function textItems(stdout) {
  return stdout.split("\n").filter((l) => l.length > 0).map((l) => {
    if (l.startsWith(">>> ")) return { kind: "stmt", text: l };
    const indent = l.match(/^ */)[0].length;
    if (indent >= 2) return { kind: "trace", depth: (indent - 2) / 2, text: l.slice(indent) };
    return { kind: "result", text: l };
  });
}

const PAGE_ITEMS = `[...document.querySelectorAll("#calls h2.stmt, #calls .row")].map((n) =>
  n.matches("h2.stmt") ? { kind: "stmt", text: n.textContent }
  : n.classList.contains("result") ? { kind: "result", text: n.querySelector(".line-text").textContent }
  : { kind: "trace", depth: Number(n.dataset.depth), text: n.querySelector(".line-text").textContent })`;

let failures = 0;
function fail(what) {
  failures++;
  console.error("FAIL: " + what);
}

function runTool(name, shellArgs) {
  const html = path.join(outDir, name + ".html");
  const stdout = execFileSync("bash", ["-c", `"$0" ${shellArgs} --html "$1"`, tool, html],
                              { cwd: srcDir, encoding: "utf8", maxBuffer: 1 << 28 });
  return { html, stdout };
}

async function checkPage(tab, name, shellArgs) {
  const { html, stdout } = runTool(name, shellArgs);
  await tab.load(html);
  const expected = textItems(stdout);
  const shown = await tab.eval(PAGE_ITEMS);
  const n = Math.max(expected.length, shown.length);
  for (let i = 0; i < n; ++i) {
    const a = expected[i], b = shown[i];
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      fail(`${name}: item ${i} differs\n  text trace: ${JSON.stringify(a)}\n  page:       ${JSON.stringify(b)}`);
      break;
    }
  }
  // Every TensorIterator row: its inspector shows the text line's coalesced shape and perm_.
  const tis = await tab.eval(`(() => {
    const out = [];
    for (const row of document.querySelectorAll("#calls .row.ti")) {
      row.click();
      const perm = document.querySelector("#inspector .ti-perm");
      out.push({ line: row.querySelector(".line-text").textContent,
                 shape: document.querySelector("#inspector .ti-iteration-shape").textContent,
                 perm: perm.textContent,
                 pictures: document.querySelectorAll("#inspector section.tensor").length });
    }
    return out;
  })()`);
  for (const ti of tis) {
    const shape = ti.line.match(/iteration shape=(\[[^\]]*\])/)[1];
    const perm = ti.line.match(/perm_=(\[[^\]]*\])/);
    if (ti.shape !== shape) fail(`${name}: TensorIterator shows coalesced shape ${ti.shape}, the text says ${shape}`);
    if (perm && ti.perm !== perm[1]) fail(`${name}: TensorIterator shows perm_ ${ti.perm}, the text says ${perm[1]}`);
    if (!perm && !ti.perm.startsWith("none")) fail(`${name}: TensorIterator shows perm_ ${ti.perm} for a fast setup`);
    if (ti.pictures < 1) fail(`${name}: TensorIterator shows no operand pictures`);
  }
  console.log(`${name}: ${expected.length} lines as the text trace, ${tis.length} TensorIterator decisions`);
  return { html, stdout, tis };
}

// Selecting element `index` of result `name` must light the cell offset + sum(index * stride).
async function checkElementCell(tab, page, name, index, stdout) {
  const m = stdout.match(new RegExp(`^${name}: \\w+ sizes=\\[[^\\]]*\\] strides=\\[([^\\]]*)\\] offset=(\\d+)`, "m"));
  const strides = m[1].split(", ").map(Number);
  const expected = Number(m[2]) + index.reduce((s, v, d) => s + v * strides[d], 0);
  const got = await tab.eval(`(() => {
    document.querySelector('#calls .row.result[data-name="${name}"]').click();
    const pic = document.querySelector("#inspector section.tensor");
    const el = pic.querySelector('button.el[data-index="${index.join(",")}"]');
    el.click();
    const lit = [...pic.querySelectorAll(".cell.hl")];
    return { cells: lit.map((c) => Number(c.dataset.offset)), element: el.textContent,
             value: lit.length ? lit[0].lastChild.textContent : null,
             formula: pic.querySelector(".formula-offset")?.textContent };
  })()`);
  if (got.cells.length !== 1 || got.cells[0] !== expected) {
    fail(`${page}: element [${index}] of ${name} lights cells ${JSON.stringify(got.cells)}, its strides give ${expected}`);
  } else if (got.value !== got.element || got.formula !== String(expected)) {
    fail(`${page}: element [${index}] of ${name} shows ${got.element}, its cell ${got.value}, the formula ${got.formula}`);
  } else {
    console.log(`${page}: ${name}[${index}] lights storage cell ${expected} (value ${got.value})`);
  }
}

const profile = fs.mkdtempSync(path.join(outDir, "profile-"));
const browser = new Browser(browserPath, profile);
try {
  const tab = await Tab.open(browser);
  const examples = path.join("tools", "trace", "examples");
  const pages = {};
  for (const name of fs.readdirSync(path.join(srcDir, examples, "pages")).filter((f) => f.endsWith(".trace")).sort()) {
    const base = name.replace(/\.trace$/, "");
    pages[base] = await checkPage(tab, "page-" + base, `-f ${examples}/pages/${name}`);
  }
  for (const script of ["seeds", "readme"]) await checkPage(tab, script, `-f ${examples}/${script}.trace`);
  // README lines that run a script (not --table or --ops alone).
  const readme = fs.readFileSync(path.join(srcDir, "README.md"), "utf8").split("\n");
  let k = 0;
  for (const line of readme) {
    const m = line.match(/^\$ miniaten_trace (.*)$/);
    if (!m || /^(--table|--ops)\b/.test(m[1].trim())) continue;
    const args = m[1].replace(/\s+#.*$/, "").replace(/--(json|dot|html) \S+/g, "");
    await checkPage(tab, `readme-${++k}`, args);
  }

  // The transposed view of the contiguous page: elements map to cells by the strides.
  await tab.load(pages.contiguous.html);
  await checkElementCell(tab, "page-contiguous", "y", [3, 0, 1], pages.contiguous.stdout);
  await checkElementCell(tab, "page-contiguous", "y", [1, 2, 0], pages.contiguous.stdout);
  await tab.screenshot(path.join(outDir, "trace_page_contiguous.png"));
  // The copy's TensorIterator, with the cells numbered in the order the loop visits them. Its
  // text line says iteration shape [2, 3, 4] with byte strides [4, 8, 24] (the output, walked
  // in storage order) and [48, 16, 4] (the transposed input: 12 elements on, then 4, then 1).
  const walk = await tab.eval(`(() => {
    document.querySelector("#calls .row.ti").click();
    document.querySelector("#inspector .walk-button").click();
    return [...document.querySelectorAll("#inspector section.tensor")].map((pic) =>
      [...pic.querySelectorAll(".cell .walk")]
        .map((w) => [Number(w.textContent.slice(1)), Number(w.parentNode.dataset.offset)])
        .sort((a, b) => a[0] - b[0]).slice(0, 8).map((p) => p[1]));
  })()`);
  const expectedWalk = [[0, 1, 2, 3, 4, 5, 6, 7], [0, 12, 4, 16, 8, 20, 1, 13]];
  if (JSON.stringify(walk) !== JSON.stringify(expectedWalk)) {
    fail(`page-contiguous: the copy's loop visits cells ${JSON.stringify(walk)}, its strides give ${JSON.stringify(expectedWalk)}`);
  }
  await tab.screenshot(path.join(outDir, "trace_page_iterator.png"));
  // The expanded view: many elements, one cell.
  await tab.load(pages.views.html);
  await checkElementCell(tab, "page-views", "e", [2, 1, 3], pages.views.stdout);
  const shared = await tab.eval(`(() => {
    const pic = document.querySelector("#inspector section.tensor");
    pic.querySelector('button.el[data-index="2,1,0"]').click();
    return pic.querySelectorAll(".el").length && pic.querySelector(".formula").textContent;
  })()`);
  if (!/5 elements share this cell/.test(shared)) fail(`page-views: an expanded element does not say its cell is shared: ${shared}`);
  await tab.screenshot(path.join(outDir, "trace_page_views.png"));
  // The autograd graph the calls made, leaves and results named, drawn and listed: mul(x, x)
  // has two edges to x's AccumulateGrad.
  const graph = await checkPage(tab, "graph", `'x = ones([2, 3], requires_grad=True); y = mul(x, x); s = sum(y)'`);
  await tab.load(graph.html);
  const arrows = await tab.eval(`[...document.querySelectorAll("#graph ul.edges li")].map((li) => li.textContent).sort()`);
  const expectedArrows = ["AccumulateGrad → MulBackward0 (2 edges)",
    "MulBackward0 → SumBackward0", "MulBackward0 → y [2, 3]", "SumBackward0 → s []", "x [2, 3] → AccumulateGrad"].sort();
  const boxes = await tab.eval(`document.querySelectorAll("#graph svg g.gnode").length`);
  if (JSON.stringify(arrows) !== JSON.stringify(expectedArrows.sort()) || boxes !== 6) {
    fail(`graph: ${boxes} boxes, arrows ${JSON.stringify(arrows)}; wanted 6 boxes, ${JSON.stringify(expectedArrows)}`);
  } else {
    console.log(`graph: ${boxes} boxes and the arrows of x -> mul -> sum`);
  }
  await tab.eval(`document.getElementById("graph").scrollIntoView()`);
  await tab.screenshot(path.join(outDir, "trace_page_graph.png"));
  // Big tensors are summarised: an expand to 5e9 elements (stride 0, one cell) and a 3000 x 400
  // tensor draw their first cells only, at once.
  const big = await checkPage(tab, "big", `'o = ones([1]); e = expand(o, [5000000000]); w = ones([3000, 400])'`);
  await tab.load(big.html);
  for (const name of ["e", "w"]) {
    const started = Date.now();
    const shown = await tab.eval(`(() => {
      document.querySelector('#calls .row.result[data-name="${name}"]').click();
      const pic = document.querySelector("#inspector section.tensor");
      return { heading: [...pic.querySelectorAll("h3")].map((h) => h.textContent).join(" | "),
               elements: pic.querySelectorAll("button.el").length,
               columns: pic.querySelectorAll("table.elements thead th").length };
    })()`);
    const ms = Date.now() - started;
    if (shown.elements !== 256 || !/the first 256 of/.test(shown.heading) || shown.columns > 257 || ms > 5000) {
      fail(`big: ${name} shows ${shown.elements} elements, ${shown.columns} column heads in ${ms} ms: ${shown.heading}`);
    } else {
      console.log(`big: ${name} summarised (${shown.heading}) in ${ms} ms`);
    }
  }
  // Narrow screens: the page still lays out without a horizontal scroll of the whole page.
  await tab.send("Emulation.setDeviceMetricsOverride", { width: 390, height: 900, deviceScaleFactor: 1, mobile: true });
  await tab.load(pages.contiguous.html);
  const overflow = await tab.eval("document.documentElement.scrollWidth - window.innerWidth");
  if (overflow > 0) fail(`at 390px wide the page is ${overflow}px wider than the screen`);
  await tab.screenshot(path.join(outDir, "trace_page_narrow.png"));
} catch (e) {
  fail(e.stack || String(e));
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
if (failures) {
  console.error(`${failures} check(s) failed; pages and screenshots are in ${outDir}`);
  process.exit(1);
}
console.log(`all checks passed; pages and screenshots are in ${outDir}`);
