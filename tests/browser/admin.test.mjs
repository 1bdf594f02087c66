// Drives Debian's Chromium through the admin area of a running longread-testsite (started by run.sh): a
// reader signs up in the browser, the operator's command line promotes them (`longread readers promote`
// on the same database file), and the flows are done by clicking, as an operator would, with the
// audit log checked after each.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { checkRunner, launchChromium, signUp } from "./harness.mjs";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const base = process.env.SITE_URL;
const cli = process.env.LONGREAD_CLI;
const db = process.env.SITE_DB;
const shots = process.env.SCREENSHOTS;
const blogUrl = process.env.BLOG_URL;  // a blog on the fixture HTTP server, for the suggestion flow
assert.ok(base && cli && db && shots && blogUrl,
          "SITE_URL, LONGREAD_CLI, SITE_DB, SCREENSHOTS and BLOG_URL must be set");

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
    await signUp(page, base, operatorEmail);
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

  // A reader suggests the fixture server's blog from /blogs; discovery runs in the background; the operator
  // approves it with a category and it is followed.
  const readerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const readerPage = watch(await readerContext.newPage());
  await check("admin: approve a suggestion: a reader suggests a blog, the operator approves it", async () => {
    await signUp(readerPage, base, `suggester${Date.now()}@example.org`);
    await readerPage.goto(base + "/blogs");
    await Promise.all([readerPage.waitForNavigation(), readerPage.click("text=Suggest a blog")]);
    assert.match(await readerPage.textContent("main"), /in the last 12 months/);
    await readerPage.fill("#suggest-url", blogUrl);
    await readerPage.fill("#suggest-note", "Winters on the river, written by its author.");
    await Promise.all([readerPage.waitForNavigation(), readerPage.click("form.account-form button[type=submit]")]);
    assert.match(new URL(readerPage.url()).pathname, /^\/account$/);
    assert.match(await readerPage.textContent(".notice"), /your suggestion is stored/);
    assert.ok(await readerPage.isVisible(`#suggestions li:has-text("${blogUrl}")`));

    // The operator reloads the suggestions until discovery has found the feed (a background thread).
    let item;
    for (let i = 0; i < 100; i++) {
      await page.goto(base + "/admin/suggestions");
      item = page.locator(`article.suggestion[data-status="found"]:has-text("${blogUrl}")`);
      if (await item.count() > 0) break;
      await page.waitForTimeout(200);
    }
    assert.equal(await item.count(), 1, "discovery found the feed");
    assert.match(await item.textContent(), /River Notes/);
    assert.match(await item.textContent(), /The old mill/);
    assert.match(await item.textContent(), /too short/);  // "Back soon" is judged junk
    await page.screenshot({ path: path.join(shots, "admin-suggestions.png"), fullPage: true });
    await item.locator("input[name=category]").fill("essays");
    await Promise.all([page.waitForNavigation(), item.locator("button", { hasText: "Approve" }).click()]);
    assert.match(await page.textContent(".notice"), /Approved/);
    const [, who, action, target, detail] = await newestAudit(page);
    assert.equal(who, operatorEmail);
    assert.equal(action, "suggestion.approve");
    assert.ok(target.includes(blogUrl));
    assert.match(detail, /River Notes.*\(essays\)/);
    await page.goto(base + "/admin/blogs?show=new");
    const row = page.locator("tr", { hasText: "River Notes" });
    assert.equal(await row.count(), 1, "the approved blog is followed");
    assert.match(await row.textContent(), /essays/);
    await readerPage.goto(base + "/account");
    assert.match(await readerPage.textContent("#suggestions"), /Approved/);
    await readerPage.screenshot({ path: path.join(shots, "account-suggestions.png"), fullPage: true });
  });

  await check("admin: axe-core finds no serious or critical violations on the suggestion pages", async () => {
    const problems = [];
    for (const [who, target] of [[readerPage, "/suggest"], [readerPage, "/account"], [page, "/admin/suggestions"]]) {
      await who.goto(base + target);
      await who.evaluate(axeSource);
      const results = await who.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
      for (const v of results.violations) {
        if (v.impact !== "serious" && v.impact !== "critical") continue;
        problems.push(`${target}: ${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  // Readers flag an article from its page (a <details> form, no script needed); at three flags (the
  // default moderation.flags_to_hide) it is held: gone for everyone else until the operator decides in
  // /admin/flags. Each reader browses in a context of their own, as separate people would.
  await check("admin: readers flag an article, it is held, and the operator keeps it, then junks it", async () => {
    const anonymous = await browser.newContext();
    // The visitor's page answers 404 on purpose while the article is held or junked: its script errors are
    // watched, its console's "Failed to load resource" for those answers is not.
    const visitor = await anonymous.newPage();
    visitor.on("pageerror", (error) => pageErrors.push(String(error)));
    await visitor.goto(base + "/search?q=" + encodeURIComponent("lock-free queues"));
    const articlePath = await visitor.locator("a", { hasText: "Lock-free queues, part 2" }).first().getAttribute("href");
    assert.match(articlePath, /^\/blog\/\d+\/read\/\d+-/);
    const articleId = articlePath.match(/\/read\/(\d+)-/)[1];
    assert.equal((await visitor.goto(base + articlePath)).status(), 200);
    assert.ok(await visitor.isVisible("text=Log in to flag this article"));

    const readers = [];
    for (const [i, reason] of [[0, "Spam"], [1, "AI-generated"], [2, "AI-generated"]]) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const reader = watch(await context.newPage());
      readers.push(context);
      await signUp(reader, base, `flagger${i}-${Date.now()}@example.org`);
      await reader.goto(base + articlePath);
      await reader.click("summary:has-text('Flag this article')");
      await reader.check(`label:has-text('${reason}') >> xpath=preceding-sibling::input`);
      if (i === 0) {
        // The open form, as a reader sees it, is checked by axe-core like the admin pages.
        await reader.evaluate(axeSource);
        const results = await reader.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
        const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
        assert.deepEqual(serious.map((v) => v.id), [], "the flag form has no serious axe violations");
        await reader.screenshot({ path: path.join(shots, "article-flag-form.png"), fullPage: true });
      }
      await Promise.all([reader.waitForNavigation(), reader.click(".flag button[type=submit]:has-text('Flag')")]);
      assert.match(await reader.textContent(".flag .notice"), /your flag is recorded/);
      assert.match(await reader.textContent(".flag"), new RegExp(`You flagged this article as ${reason}`, "i"));
      const stillPublic = (await visitor.goto(base + articlePath)).status();
      assert.equal(stillPublic, i < 2 ? 200 : 404, `after ${i + 1} flag(s)`);
    }

    await page.goto(base + "/admin/flags?show=held");
    const row = page.locator(`tr[data-article="${articleId}"]`);
    assert.match(await row.textContent(), /spam 1, AI-generated 2/);
    assert.match(await row.textContent(), /held: hidden until you decide/);
    await page.screenshot({ path: path.join(shots, "admin-flags-held.png"), fullPage: true });
    await Promise.all([page.waitForNavigation(), row.locator("button", { hasText: "Keep" }).click()]);
    assert.match(await page.textContent(".notice"), /kept: it shows on the site/);
    let [, who, action, target, detail] = await newestAudit(page);
    assert.equal(who, operatorEmail);
    assert.equal(action, "flags.keep");
    assert.match(target, new RegExp(`^article ${articleId} `));
    assert.equal(detail, "flags: 3; was: held");
    assert.equal((await visitor.goto(base + articlePath)).status(), 200, "kept: shown again");

    await page.goto(base + "/admin/flags");
    await Promise.all([page.waitForNavigation(),
                       page.locator(`tr[data-article="${articleId}"]`).locator("button", { hasText: "Junk" }).click()]);
    assert.match(await page.textContent(".notice"), /junked: it is hidden/);
    [, who, action] = await newestAudit(page);
    assert.equal(action, "flags.junk");
    assert.equal((await visitor.goto(base + articlePath)).status(), 404, "junked: hidden");
    await visitor.goto(base + "/search?q=" + encodeURIComponent("lock-free queues"));
    assert.equal(await visitor.locator(`a[href="${articlePath}"]`).count(), 0, "junked: not found by search");
    for (const context of readers) await context.close();
    await anonymous.close();
  });

  await check("admin: axe-core finds no serious or critical violations on the admin pages", async () => {
    const problems = [];
    for (const target of ["/admin", "/admin/blogs", "/admin/blogs?show=failing&sort=rate", "/admin/junk",
                          "/admin/flags", "/admin/flags?show=held", "/admin/lifecycle", "/admin/audit"]) {
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
  await readerContext.close();
  await context.close();
} finally {
  await browser.close();
}

console.log(failures() === 0 ? "admin browser test passed" : `${failures()} admin browser check(s) failed`);
process.exit(failures() === 0 ? 0 : 1);
