// node readability.mjs DIR OUTDIR [--repeat N]
// Times jsdom parse + Readability.parse() over every DIR/<page>/source.html (files read into memory
// first, as extract_bench does) and writes each article's HTML to OUTDIR/<page>.html, which
// extract_bench --score-dir then scores with longread's tokenizer, so both sides share one measure.
import { readFileSync, readdirSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { JSDOM, VirtualConsole } from "jsdom";
import { Readability } from "@mozilla/readability";

const [dir, outDir] = process.argv.slice(2);
const repeatAt = process.argv.indexOf("--repeat");
const repeat = repeatAt > 0 ? Math.max(1, parseInt(process.argv[repeatAt + 1], 10)) : 1;
mkdirSync(outDir, { recursive: true });

const pages = readdirSync(dir)
  .filter((name) => existsSync(join(dir, name, "source.html")) && existsSync(join(dir, name, "expected.html")))
  .sort()
  .map((name) => ({ name, source: readFileSync(join(dir, name, "source.html"), "utf8") }));
const bytes = pages.reduce((n, p) => n + Buffer.byteLength(p.source, "utf8"), 0);
const virtualConsole = new VirtualConsole();  // silence CSS/script warnings: they are not the work measured

const outputs = new Map();
const failures = new Map();
// CPU time of this process (all its threads), like extract_bench: the machine may be shared.
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
// Warm the JIT on a few pages first (untimed), so the timed pass measures steady-state speed.
for (const page of pages.slice(0, 10)) {
  try {
    const dom = new JSDOM(page.source, { url: "http://fakehost/test/page.html", virtualConsole });
    new Readability(dom.window.document).parse();
    dom.window.close();
  } catch {}
}
const start = cpu();
const wallStart = process.hrtime.bigint();
for (let r = 0; r < repeat; r++) {
  for (const page of pages) {
    try {
      // The same URL upstream's tests use; scripts are not run (jsdom's default).
      const dom = new JSDOM(page.source, { url: "http://fakehost/test/page.html", virtualConsole });
      const article = new Readability(dom.window.document, { classesToPreserve: ["caption"] }).parse();
      if (r === 0 && article && article.content) outputs.set(page.name, article.content);
      dom.window.close();
    } catch (e) {
      failures.set(page.name, String(e).split("\n")[0]);  // a jsdom/cssstyle crash: counted as no output
    }
  }
}
const seconds = cpu() - start;
const wall = Number(process.hrtime.bigint() - wallStart) / 1e9;
for (const [name, html] of outputs) writeFileSync(join(outDir, `${name}.html`), html);
const mb = bytes / 1e6;
console.log(
  `Mozilla Readability ${JSON.parse(readFileSync(new URL("./node_modules/@mozilla/readability/package.json", import.meta.url))).version}` +
    ` + jsdom: ${pages.length} pages, ${mb.toFixed(2)} MB, ${repeat} passes in ${seconds.toFixed(2)} s CPU ` +
    `(${wall.toFixed(2)} s wall): ${((mb * repeat) / seconds).toFixed(2)} MB/s`,
);
for (const [name, why] of failures) console.log(`  ${name}: jsdom threw: ${why}`);
console.log(`MBPS ${((mb * repeat) / seconds).toFixed(4)}`);
