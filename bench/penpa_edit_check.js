// Opens Penpa+ URLs in penpa-edit's own page (headless Chromium through playwright-core) and
// reports what penpa-edit made of each: its board, the problem's layers with every key placed
// by penpa's own point geometry, its genre tags and answer-check settings, and, for a URL with
// an answer, whether penpa's own check (`pu.check_solution`) accepts the marks a solver would
// draw, and rejects them with one mark taken away. Driven by bench/penpa_edit_check.py.
//
//   node bench/penpa_edit_check.js PENPA_DOCS_DIR CASES.json OUT.json
//
// CASES.json: [{name, url, marks: {layer: {key: value}} | null}], url the part after `#`.
// Needs playwright-core (npm) and a Chromium (CHROMIUM, default /usr/bin/chromium).
"use strict";

const fs = require("fs");
const path = require("path");

function playwright() {
  try {
    return require("playwright-core");
  } catch (e) {
    console.error("penpa_edit_check: playwright-core is not installed (npm install playwright-core; " +
      "or set NODE_PATH to a node_modules that has it)");
    process.exit(3);
  }
}

// Runs in the page: penpa's view of the loaded puzzle.
function inspect() {
  const size = pu.size;
  const topleft = (2 + pu.space[0]) * pu.nx0 + 2 + pu.space[2];  // reset_frame's first cell inside the frame
  const origin = pu.point[topleft];
  const round = (v) => Math.round(v * 2) / 2;
  const place = (k) => {
    const p = pu.point[parseInt(k, 10)];
    return p ? [p.type, round((p.x - origin.x) / size), round((p.y - origin.y) / size)] : null;
  };
  const placed = (layer) => {
    const out = {};
    for (const key of Object.keys(layer || {})) {
      out[key] = [String(key).split(",").map(place), layer[key]];
    }
    return out;
  };
  const frame = [];
  for (let j = 2 + pu.space[0]; j < pu.ny0 - 2 - pu.space[1]; j++) {
    for (let i = 2 + pu.space[2]; i < pu.nx0 - 2 - pu.space[3]; i++) frame.push(i + j * pu.nx0);
  }
  const checks = [...document.getElementById("answersetting").getElementsByClassName("solcheck")]
    .filter((c) => c.checked).map((c) => c.id);
  return {
    gridtype: pu.gridtype, nx: pu.nx, ny: pu.ny, space: pu.space,
    title: document.getElementById("saveinfotitle").value,
    rules: pu.rules || "",
    tags: $("#genre_tags_opt").select2("val"),
    centerlist_ok: JSON.stringify(frame) === JSON.stringify(pu.centerlist),
    q: { number: placed(pu.pu_q.number), surface: placed(pu.pu_q.surface), symbol: placed(pu.pu_q.symbol),
         lineE: placed(pu.pu_q.lineE), line: placed(pu.pu_q.line) },
    checks: checks,
    has_solution: Boolean(pu.solution),
    // the layer and input mode a solver starts in (the style penpa settles itself, from its panel)
    mode: [pu.mode.qa, pu.mode[pu.mode.qa].edit_mode, pu.mode[pu.mode.qa][pu.mode[pu.mode.qa].edit_mode][0]],
    saved: pu.mmode === "solve" ? pu.maketext_solve() : pu.maketext(),  // penpa's own URL of what it loaded
  };
}

// Runs in the page: draw the marks in the solver's layer, ask penpa's check, then break them.
function answer(marks) {
  const size = pu.size;
  const origin = pu.point[(2 + pu.space[0]) * pu.nx0 + 2 + pu.space[2]];
  const round = (v) => Math.round(v * 2) / 2;
  const place = (k) => {
    const p = pu.point[parseInt(k, 10)];
    return p ? [p.type, round((p.x - origin.x) / size), round((p.y - origin.y) / size)] : null;
  };
  const placed = {};
  for (const layer of Object.keys(marks)) {
    placed[layer] = {};
    for (const key of Object.keys(marks[layer])) placed[layer][key] = [key.split(",").map(place), marks[layer][key]];
  }
  const draw = (m) => {
    for (const layer of ["surface", "line", "lineE", "number", "symbol"]) pu.pu_a[layer] = {};
    for (const layer of Object.keys(m)) Object.assign(pu.pu_a[layer], m[layer]);
  };
  draw(marks);
  pu.sol_flag = 0;
  pu.check_solution();
  const made = JSON.stringify(pu.make_solution());
  const accepted = pu.sol_flag === 1;
  const broken = JSON.parse(JSON.stringify(marks));
  const layer = Object.keys(broken).find((name) => Object.keys(broken[name]).length > 0);
  const key = Object.keys(broken[layer]).sort()[0];
  delete broken[layer][key];
  draw(broken);
  pu.sol_flag = 0;
  pu.check_solution();
  return { a: placed, accepted: accepted, made: made, solution: pu.solution, broken_rejected: pu.sol_flag === 0,
           broken_by: layer + " " + key };
}

// Runs in the page: page pixels of places in cell units (column, row from cell (0, 0)'s centre),
// by penpa's own geometry and the canvas's place on the page (as main.js `coord_point` reads them).
function pixels(places) {
  const canvas = document.getElementById("canvas");
  const origin = pu.point[(2 + pu.space[0]) * pu.nx0 + 2 + pu.space[2]];
  return places.map(([x, y]) => [canvas.offsetLeft + origin.x + x * pu.size - window.scrollX,
                                 canvas.offsetTop + origin.y + y * pu.size - window.scrollY]);
}

// Draws with the mouse and keyboard: [{click: [x, y], button}, {drag: [[x, y], …]}, {type: [x, y], text}].
async function gestures(page, list) {
  for (const g of list) {
    if (g.click) {
      const [[x, y]] = await page.evaluate(pixels, [g.click]);
      await page.mouse.click(x, y, { button: g.button || "left" });
    } else if (g.drag) {
      const path = await page.evaluate(pixels, g.drag);
      await page.mouse.move(path[0][0], path[0][1]);
      await page.mouse.down({ button: g.button || "left" });
      for (const [x, y] of path.slice(1)) await page.mouse.move(x, y, { steps: 4 });
      await page.mouse.up({ button: g.button || "left" });
    } else if (g.type) {
      const [[x, y]] = await page.evaluate(pixels, [g.type]);
      await page.mouse.click(x, y);
      await page.keyboard.type(g.text);
    }
  }
}

// Runs in the page: penpa's verdict on what the mouse drew.
function verdict() {
  pu.sol_flag = 0;
  pu.check_solution();
  const drawn = {};
  for (const layer of ["surface", "line", "lineE", "number", "symbol"]) drawn[layer] = pu.pu_a[layer];
  return { drawn_accepted: pu.sol_flag === 1, drawn_made: JSON.stringify(pu.make_solution()), drawn: drawn };
}

async function main() {
  const [docs, casesPath, outPath] = process.argv.slice(2);
  if (!docs || !outPath) {
    console.error("usage: node penpa_edit_check.js PENPA_DOCS_DIR CASES.json OUT.json");
    process.exit(2);
  }
  const page_url = "file://" + path.resolve(docs, "index.html");
  const cases = JSON.parse(fs.readFileSync(casesPath, "utf8"));
  const browser = await playwright().chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--allow-file-access-from-files", "--no-sandbox"],
  });
  const viewport = { width: 2600, height: 2600 };
  const results = [];
  for (const c of cases) {
    const context = await browser.newContext({ viewport: viewport });  // fresh storage: no saved progress
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e.message || e)));
    const row = { name: c.name };
    try {
      await page.goto(page_url + "#" + c.url);
      await page.waitForFunction(() => typeof pu !== "undefined" && pu && pu.point && pu.point.length > 0 &&
        pu.centerlist && pu.centerlist.length > 0 && document.readyState === "complete", null, { timeout: 20000 });
      await page.waitForTimeout(300);  // load() finishes after its progress look-up
      Object.assign(row, await page.evaluate(inspect));
      if (c.gestures) {
        await gestures(page, c.gestures);
        Object.assign(row, await page.evaluate(verdict));
      }
      if (c.marks) Object.assign(row, await page.evaluate(answer, c.marks));
    } catch (e) {
      row.error = String(e.message || e).split("\n")[0];
    }
    row.page_errors = errors;
    results.push(row);
    await context.close();
  }
  await browser.close();
  fs.writeFileSync(outPath, JSON.stringify(results, null, 1));
}

main().catch((e) => { console.error(e); process.exit(1); });
