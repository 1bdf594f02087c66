// What the browser tests share: Debian's Chromium, launched headless with nothing that reaches beyond
// 127.0.0.1, and named checks that log "ok" or "FAIL" and go on, so one run reports every failure.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync"],
  });
}

// check(name, fn) runs one named check; failures() is how many have failed so far.
export function checkRunner() {
  let failed = 0;
  async function check(name, fn) {
    try {
      await fn();
      console.log(`ok   ${name}`);
    } catch (error) {
      failed += 1;
      console.log(`FAIL ${name}\n     ${String(error && error.stack || error).split("\n").slice(0, 30).join("\n     ")}`);
    }
  }
  return { check, failures: () => failed };
}

// Signs `email` up through the site's form at `base` and checks the page says logged in; the form sends
// the reader on to `next`.
export async function signUp(page, base, email, next = "/") {
  await page.goto(`${base}/signup?next=${encodeURIComponent(next)}`);
  await page.fill("#email", email);
  await page.fill("#password", "a long passphrase");
  await Promise.all([page.waitForNavigation(), page.click("form.account-form button[type=submit]")]);
  assert.ok(await page.isVisible("text=Log out"), "signed up and logged in");
}

// axe-core's WCAG rules on the page as it is; the serious and critical violations, summarised.
export async function axeViolations(page) {
  await page.evaluate(axeSource);
  const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
}
