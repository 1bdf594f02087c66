// A reader's personal filters in Debian's Chromium (docs/readers.md, "Personal filters"), against a
// longread-testsite of its own (started by run.sh): mute a blog from the article page and un-mute it from
// the account page; "Read now" marks the article read (dimmed in the listing), the m key toggles it, the
// hide-read setting hides it, and mark-on-scroll marks what scrolls past; axe-core on the account page with
// mutes listed and on a listing with read articles, light and dark.
import assert from "node:assert/strict";
import path from "node:path";
import { checkRunner, launchChromium, signUp, axeViolations } from "./harness.mjs";

const base = process.env.SITE_URL;
const shots = process.env.SCREENSHOTS;
assert.ok(base && shots, "SITE_URL and SCREENSHOTS must be set");

const browser = await launchChromium();
const { check, failures } = checkRunner();
const pageErrors = [];
function watch(page) {
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  page.on("console", (msg) => { if (msg.type() === "error") pageErrors.push(`${msg.text()} (${msg.location().url})`); });
  return page;
}

// The blogs' own sites are not reachable from the test: "Read now" lands on a stand-in page.
async function offline(context) {
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>original</title><p>original" }));
}

// The newest article (the fixture's zeppelin post, from "Field Notes on History"): its id and blog link.
const first = (page) => page.$eval("[data-item]", (item) => ({
  id: item.getAttribute("data-article"),
  blog: item.querySelector(".meta a[href^='/blog/']").getAttribute("href"),
  read: item.classList.contains("is-read"),
}));
const item = (id) => `[data-item][data-article='${id}']`;
const isRead = (page, id) => page.$eval(item(id), (el) => el.classList.contains("is-read"));
const markPosted = (page, id) =>
  page.waitForResponse((r) => r.url().endsWith(`/articles/${id}/read`) && r.request().method() === "POST");

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
  await offline(context);
  const page = watch(await context.newPage());
  await signUp(page, base, `filters${Date.now()}@example.org`, "/newest");
  const newest = await first(page);

  await check("mute a blog from the article page; gone from Hot and Newest; un-mute from the account page", async () => {
    await page.goto(base + `${newest.blog}/read/${newest.id}`);
    const blogName = await page.textContent("[data-shortcut='blog']");
    await Promise.all([page.waitForNavigation(), page.click(`.mute button:has-text("Mute ${blogName}")`)]);
    assert.ok(await page.isVisible("text=You muted this."));
    for (const listing of ["/", "/newest"]) {
      await page.goto(base + listing);
      assert.equal(await page.$(`[data-item] .meta a[href='${newest.blog}']`), null, `${listing} lists no muted blog`);
      assert.ok((await page.$$("[data-item]")).length >= 20, `${listing} is still a full page`);
    }
    await page.goto(base + "/account");
    assert.ok(await page.isVisible(`.mutes >> text=${blogName}`));
    await page.screenshot({ path: path.join(shots, "account-mutes.png"), fullPage: true });
    const problems = [];
    for (const colorScheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme });
      for (const v of await axeViolations(page)) problems.push(`${colorScheme} /account: ${v}`);
    }
    await page.emulateMedia({ colorScheme: "light" });
    assert.deepEqual(problems, []);
    await Promise.all([page.waitForNavigation(), page.click(`.mutes button:has-text("Unmute ${blogName}")`)]);
    assert.equal(await page.$(".mutes"), null, "nothing muted any more");
    await page.goto(base + "/newest");
    assert.ok(await page.$(`[data-item] .meta a[href='${newest.blog}']`), "back in Newest");
  });

  await check("Read now marks the article read: dimmed in the listing", async () => {
    await page.goto(base + "/newest");
    assert.equal(await isRead(page, newest.id), false);
    const titleColour = await page.$eval(`${item(newest.id)} h2 a`, (a) => getComputedStyle(a).color);
    await Promise.all([page.waitForURL(/original|history\.example/), page.click(`${item(newest.id)} h2 a`)]);
    // The mark is a keepalive request that outlives the page: the listing shows it once it has landed.
    let read = false;
    for (let tries = 0; tries < 20 && !read; tries += 1) {
      await page.goto(base + "/newest");
      read = await isRead(page, newest.id);
      if (!read) await page.waitForTimeout(250);
    }
    assert.equal(read, true, "the server has the mark");
    const dimmed = await page.$eval(`${item(newest.id)} h2 a`, (a) => getComputedStyle(a).color);
    assert.notEqual(dimmed, titleColour, "a read article's title is dimmed");
    await page.screenshot({ path: path.join(shots, "newest-read.png") });
    const problems = [];
    for (const colorScheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme });
      for (const v of await axeViolations(page)) problems.push(`${colorScheme} /newest: ${v}`);
    }
    await page.emulateMedia({ colorScheme: "light" });
    assert.deepEqual(problems, [], "dimmed articles keep their contrast");
  });

  await check("the m key toggles read on the highlighted article, and the server keeps it", async () => {
    await page.goto(base + "/newest");
    await page.keyboard.press("j");
    let posted = markPosted(page, newest.id);
    await page.keyboard.press("m");
    assert.equal((await posted).status(), 200);
    assert.equal(await isRead(page, newest.id), false);
    assert.equal(await page.getAttribute(`${item(newest.id)} form[data-read-toggle] button`, "aria-pressed"), "false");
    await page.reload();
    assert.equal(await isRead(page, newest.id), false, "unread after a reload");
    await page.keyboard.press("j");
    posted = markPosted(page, newest.id);
    await page.keyboard.press("m");
    await posted;
    await page.reload();
    assert.equal(await isRead(page, newest.id), true, "read again after a reload");
    // On the article page the key acts on the article itself.
    await page.goto(base + `${newest.blog}/read/${newest.id}`);
    assert.ok(await page.$("article.article.is-read"));
    posted = markPosted(page, newest.id);
    await page.keyboard.press("m");
    await posted;
    assert.equal(await page.$("article.article.is-read"), null);
    posted = markPosted(page, newest.id);
    await page.keyboard.press("m");
    await posted;
  });

  await check("the hide-read setting hides read articles from the listings", async () => {
    await page.goto(base + "/account");
    await page.check("#hide-read");
    await Promise.all([page.waitForNavigation(), page.click("#filters button[type=submit]")]);
    assert.ok(await page.isVisible("text=Your reading preferences are saved."));
    await page.goto(base + "/newest");
    assert.equal(await page.$(item(newest.id)), null, "the read article is hidden");
    await page.goto(base + "/account");
    await page.uncheck("#hide-read");
    await Promise.all([page.waitForNavigation(), page.click("#filters button[type=submit]")]);
    await page.goto(base + "/newest");
    assert.ok(await page.$(item(newest.id)), "shown again, dimmed");
  });

  await check("mark as read when scrolled past (a setting, off by default)", async () => {
    await page.goto(base + "/newest");
    const second = await page.$$eval("[data-item]", (items) => items[1].getAttribute("data-article"));
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForTimeout(300);
    assert.equal(await isRead(page, second), false, "off: scrolling marks nothing");
    await page.goto(base + "/account");
    await page.check("#mark-read-on-scroll");
    await Promise.all([page.waitForNavigation(), page.click("#filters button[type=submit]")]);
    await page.goto(base + "/newest");
    assert.equal(await isRead(page, second), false);
    const posted = markPosted(page, second);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    assert.equal((await posted).status(), 200);
    await page.reload();
    assert.equal(await isRead(page, second), true, "the server kept the mark");
  });

  await check("no JavaScript errors", async () => { assert.deepEqual(pageErrors, []); });
  await context.close();
} finally {
  await browser.close();
}

console.log(failures() === 0 ? `filters browser test passed; screenshots in ${shots}` : `${failures()} browser check(s) failed`);
process.exit(failures() === 0 ? 0 : 1);
