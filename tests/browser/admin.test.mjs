// Drives Debian's Chromium through the admin area of a running longread-testsite (started by run.sh): a
// reader signs up in the browser, the operator's command line promotes them (`longread readers promote`
// on the same database file), and the flows are done by clicking, as an operator would, with the
// audit log checked after each.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { checkRunner, launchChromium } from "./harness.mjs";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const base = process.env.SITE_URL;
const cli = process.env.LONGREAD_CLI;
const db = process.env.SITE_DB;
const shots = process.env.SCREENSHOTS;
assert.ok(base && cli && db && shots, "SITE_URL, LONGREAD_CLI, SITE_DB and SCREENSHOTS must be set");

const browser = await launchChromium();
const { check, failures } = checkRunner();

const pageErrors = [];
function watch(page) {
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    // The refusal this test asks for (a reader opening /admin) reports its own 403.
    if (/status of 403/.test(msg.text()) && /\/admin\/blogs$/.test(msg.location().url || "")) return;
    pageErrors.push(`${msg.text()} (${msg.location().url})`);
  });
  return page;
}

async function signUp(page, email) {
  await page.goto(base + "/signup?next=%2F");
  await page.fill("#email", email);
  await page.fill("#password", "a long passphrase");
  await Promise.all([page.waitForNavigation(), page.click("form.account-form button[type=submit]")]);
  assert.ok(await page.isVisible("text=Log out"), "signed up and logged in");
}

// The audit log's newest row, as the operator sees it: [when, who, action, target, details].
async function newestAudit(page) {
  await page.goto(base + "/admin/audit");
  return page.$$eval(".admin-table tbody tr:first-child td", (cells) => cells.map((c) => c.textContent.trim()));
}

const operatorEmail = `operator${Date.now()}@example.org`;
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = watch(await context.newPage());

  await check("admin: a reader is refused until the command line promotes them", async () => {
    await signUp(page, operatorEmail);
    const refused = await page.goto(base + "/admin/blogs");
    assert.equal(refused.status(), 403);
    execFileSync(cli, ["--db", db, "readers", "promote", operatorEmail], { stdio: "pipe" });
    const allowed = await page.goto(base + "/admin/blogs");
    assert.equal(allowed.status(), 200);
    assert.equal(await page.textContent("h1"), "Blogs");
  });

  await check("admin: pause a blog from the blogs table, then resume it", async () => {
    await page.goto(base + "/admin/blogs");
    const row = page.locator("tr", { hasText: "Compiler Diaries" });
    await Promise.all([page.waitForNavigation(), row.locator("button", { hasText: "Pause" }).click()]);
    assert.match(await page.textContent(".notice"), /Paused/);
    await page.screenshot({ path: path.join(shots, "admin-blogs-paused.png"), fullPage: true });
    // The paused filter lists it, with a Resume button in place of Pause.
    await page.click(".admin-filters >> text=Paused");
    const pausedRow = page.locator("tr", { hasText: "Compiler Diaries" });
    assert.ok(await pausedRow.locator(".badge", { hasText: "paused" }).isVisible());
    const [when, who, action, target] = await newestAudit(page);
    assert.ok(when.length > 0);
    assert.equal(who, operatorEmail);
    assert.equal(action, "blog.pause");
    assert.match(target, /Compiler Diaries/);
    await page.goto(base + "/admin/blogs?show=paused");
    await Promise.all([page.waitForNavigation(),
                       page.locator("tr", { hasText: "Compiler Diaries" }).locator("button", { hasText: "Resume" }).click()]);
    assert.match(await page.textContent(".notice"), /Resumed/);
    assert.equal((await newestAudit(page))[2], "blog.resume");
  });

  await check("admin: review junk, keep one, and undo it", async () => {
    await page.goto(base + "/admin/junk");
    const rows = page.locator("table:has(caption:has-text('Recent junk')) tbody tr");
    assert.ok(await rows.count() > 0, "the test site seeds junk");
    const row = rows.first();
    const articleId = await row.getAttribute("data-article");
    const reason = (await row.locator("td").nth(1).textContent()).trim();
    assert.ok(reason.length > 0, "each junk row says why");
    await Promise.all([page.waitForNavigation(), row.locator("button", { hasText: "Keep" }).click()]);
    assert.match(await page.textContent(".notice"), /kept: it shows on the site/);
    const keptUrl = page.url();
    await page.screenshot({ path: path.join(shots, "admin-junk-kept.png"), fullPage: true });
    const [, who, action, target, detail] = await newestAudit(page);
    assert.equal(who, operatorEmail);
    assert.equal(action, "article.keep");
    assert.match(target, new RegExp(`^article ${articleId} `));
    assert.match(detail, /^was: filter/);
    // The kept article is no longer in the junk list; Undo hands it back to the filter.
    await page.goto(base + "/admin/junk");
    assert.equal(await page.locator(`table:has(caption:has-text('Recent junk')) tr[data-article="${articleId}"] button`,
                                    { hasText: "Keep" }).count(), 0);
    await page.goto(keptUrl);
    await Promise.all([page.waitForNavigation(), page.locator(".notice button", { hasText: "Undo" }).click()]);
    assert.match(await page.textContent(".notice"), /handed back to the filter/);
    assert.equal((await newestAudit(page))[2], "article.filter");
  });

  await check("admin: axe-core finds no serious or critical violations on the admin pages", async () => {
    const problems = [];
    for (const target of ["/admin", "/admin/blogs", "/admin/blogs?show=failing&sort=rate", "/admin/junk",
                          "/admin/audit"]) {
      await page.goto(base + target);
      await page.evaluate(axeSource);
      const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
      for (const v of results.violations) {
        if (v.impact !== "serious" && v.impact !== "critical") continue;
        problems.push(`${target}: ${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  await check("admin: no JavaScript errors", async () => {
    assert.deepEqual(pageErrors, []);
  });
  await context.close();
} finally {
  await browser.close();
}

console.log(failures() === 0 ? "admin browser test passed" : `${failures()} admin browser check(s) failed`);
process.exit(failures() === 0 ? 0 : 1);
