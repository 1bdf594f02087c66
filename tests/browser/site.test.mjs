// Drives Debian's Chromium against a running longread-testsite (started by run.sh) and checks what only a
// browser can: keyboard shortcuts, the overlay and its focus trap, j/k highlight, full width, dark mode,
// the header at 1280 px and on a phone, the page without JavaScript, a reader's "for you" page, and
// axe-core's accessibility rules on every kind of page in light and dark mode.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { checkRunner, launchChromium, signUp, axeViolations } from "./harness.mjs";

const base = process.env.SITE_URL;
const mailBase = process.env.MAIL_SITE_URL;
const articlePath = process.env.ARTICLE_PATH;
const shots = process.env.SCREENSHOTS;
assert.ok(base && mailBase && articlePath && shots,
          "SITE_URL, MAIL_SITE_URL, ARTICLE_PATH and SCREENSHOTS must be set");

const browser = await launchChromium();
const { check, failures } = checkRunner();

const pageErrors = [];
const expectedMissing = /\/(no\/such\/page|newsletter)$/;
function watch(page) {
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    // The pages this test expects to be missing report their own 404 as a console error.
    if (/status of 404/.test(msg.text()) && expectedMissing.test(msg.location().url || "")) return;
    pageErrors.push(`${msg.text()} (${msg.location().url})`);
  });
  return page;
}

const luminance = (rgb) => {
  const [r, g, b] = rgb.match(/\d+/g).map(Number);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const mainWidth = (page) => page.$eval("main .content", (el) => el.getBoundingClientRect().width);
const currentIndex = (page) =>
  page.$$eval("[data-item]", (items) => items.findIndex((item) => item.classList.contains("is-current")));
const rect = (page, selector) =>
  page.$eval(selector, (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right,
                                                                                  top: r.top, width: r.width }; });
const activeInside = (page, selector) =>
  page.evaluate((sel) => !!document.activeElement && !!document.activeElement.closest(sel), selector);
const metaContent = (page, attribute, key) =>
  page.evaluate(([a, k]) => { const m = document.querySelector(`meta[${a}="${k}"]`); return m && m.content; },
                [attribute, key]);

// The header's items (brand, section links, search box, account links): each one's box, to tell whether
// they share one row and stay inside the viewport.
const headerItems = (page) => page.$$eval(
  ".site-header .brand, .site-header .nav a, .site-header input[type=search], .site-header .account > *",
  (els) => els.map((el) => { const r = el.getBoundingClientRect();
                             return { name: el.textContent.trim() || el.tagName, top: r.top, bottom: r.bottom,
                                      left: r.left, right: r.right, width: r.width }; }));
function assertOneRow(items, what) {
  assert.ok(items.length >= 8, `${what}: ${items.length} header items`);
  const middles = items.map((i) => (i.top + i.bottom) / 2);
  const spread = Math.max(...middles) - Math.min(...middles);
  assert.ok(spread < 12, `${what}: header items are on one row (vertical spread ${spread}px: ` +
                         JSON.stringify(items.map((i) => [i.name, Math.round(i.top)])) + ")");
}

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
  const page = watch(await context.newPage());

  await check("front page lists articles", async () => {
    const response = await page.goto(base + "/");
    assert.equal(response.status(), 200);
    assert.equal(await page.textContent("h1"), "Hot right now");
    assert.ok((await page.$$("[data-item]")).length >= 20);
    assert.match(await page.textContent("body"), /5 minutes ago/);
    await page.screenshot({ path: path.join(shots, "front.png") });
  });

  await check("j/k move the highlight through the list", async () => {
    assert.equal(await currentIndex(page), -1);
    await page.keyboard.press("j");
    assert.equal(await currentIndex(page), 0);
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    assert.equal(await currentIndex(page), 2);
    await page.keyboard.press("k");
    assert.equal(await currentIndex(page), 1);
    const highlighted = await page.$eval(".is-current", (el) => getComputedStyle(el).backgroundColor);
    assert.notEqual(highlighted, "rgba(0, 0, 0, 0)");
  });

  await check("/ focuses the search box", async () => {
    await page.keyboard.press("/");
    assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.name), "q");
    await page.keyboard.press("Escape");
  });

  await check("article page opens with its canonical slug", async () => {
    const response = await page.goto(base + articlePath);
    assert.equal(response.status(), 200);
    assert.match(page.url(), /\/read\/\d+-lock-free-queues-part-2$/);
    assert.equal(await page.textContent("h1"), "Lock-free queues, part 2");
    assert.match(await page.textContent(".article .meta"), /23rd May 2022/);
    const read = await page.$("a[data-shortcut='read']");
    assert.equal(await read.getAttribute("rel"), "noopener");
    assert.match(await read.getAttribute("href"), /^https:\/\/ada\.example\.com\//);
    assert.ok(await page.isVisible("text=More from Ada's Notebook"));
    assert.ok(await page.isVisible("text=More in Programming"));
    await page.screenshot({ path: path.join(shots, "article.png") });
  });

  await check("alt+shift+k opens the shortcuts overlay, Escape closes it", async () => {
    assert.equal(await page.isVisible("#shortcuts"), false);
    await page.keyboard.press("Alt+Shift+KeyK");
    await page.waitForSelector("#shortcuts", { state: "visible", timeout: 2000 });
    assert.match(await page.textContent("#shortcuts"), /Full width/);
    await page.screenshot({ path: path.join(shots, "shortcuts.png") });
    await page.keyboard.press("Escape");
    await page.waitForSelector("#shortcuts", { state: "hidden", timeout: 2000 });
  });

  await check("alt+shift+f toggles full width and remembers it", async () => {
    const narrow = await mainWidth(page);
    await page.keyboard.press("Alt+Shift+KeyF");
    const wide = await mainWidth(page);
    assert.ok(wide > narrow + 200, `full width ${wide} should exceed ${narrow}`);
    await page.reload();
    assert.equal(await mainWidth(page), wide, "full width survives a reload (localStorage)");
    await page.keyboard.press("Alt+Shift+KeyF");
    assert.equal(await mainWidth(page), narrow);
  });

  await check("dark mode toggle switches colours and is remembered", async () => {
    const light = await page.$eval("body", (el) => getComputedStyle(el).backgroundColor);
    assert.ok(luminance(light) > 200, `light background ${light}`);
    await page.click("button[data-action='theme']");
    const dark = await page.$eval("body", (el) => getComputedStyle(el).backgroundColor);
    assert.ok(luminance(dark) < 60, `dark background ${dark}`);
    await page.reload();
    assert.equal(await page.$eval("html", (el) => el.getAttribute("data-theme")), "dark");
    await page.screenshot({ path: path.join(shots, "article-dark.png") });
    await page.keyboard.press("Alt+Shift+KeyD");
    assert.equal(await page.$eval("html", (el) => el.getAttribute("data-theme")), "light");
  });

  await check("alt+shift+b goes to the article's blog", async () => {
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Alt+Shift+KeyB")]);
    assert.match(page.url(), /\/blog\/\d+$/);
    assert.equal(await page.textContent("h1"), "Ada's Notebook");
  });

  await check("dark mode follows prefers-color-scheme without any toggle", async () => {
    const darkContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "dark" });
    const darkPage = watch(await darkContext.newPage());
    await darkPage.goto(base + "/");
    const bg = await darkPage.$eval("body", (el) => getComputedStyle(el).backgroundColor);
    assert.ok(luminance(bg) < 60, `dark background ${bg}`);
    await darkContext.close();
  });

  await check("phone width: no horizontal scrolling, readable layout", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2,
                                             isMobile: true, hasTouch: true, colorScheme: "light" });
    const phonePage = watch(await phone.newPage());
    await phonePage.goto(base + "/");
    const overflow = await phonePage.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(overflow <= 390, `page is ${overflow}px wide at a 390px viewport`);
    await phonePage.screenshot({ path: path.join(shots, "phone-front.png") });
    // A long unbroken address in an excerpt (the compiler blog's week 1) and in a search snippet wraps.
    assert.ok(await phonePage.isVisible("text=/poletto-sarkar/"), "the excerpt with the long address is listed");
    await phonePage.goto(base + "/search?q=poletto");
    assert.ok((await phonePage.$$("[data-item]")).length >= 1, "search finds the long address");
    const searchWidth = await phonePage.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(searchWidth <= 390, `search page is ${searchWidth}px wide at a 390px viewport`);
    await phonePage.screenshot({ path: path.join(shots, "phone-search.png") });
    await phonePage.goto(base + articlePath);
    assert.ok((await phonePage.evaluate(() => document.documentElement.scrollWidth)) <= 390);
    // The code block keeps its lines and scrolls inside itself instead of widening the page.
    const code = await phonePage.$eval(".body pre", (el) => ({
      lines: el.textContent.split("\n").length, scroll: el.scrollWidth, width: el.clientWidth,
      font: getComputedStyle(el).fontFamily }));
    assert.equal(code.lines, 4);
    assert.ok(code.scroll > code.width, `the long line scrolls inside the block (${code.scroll} > ${code.width})`);
    assert.match(code.font, /mono/i);
    await phonePage.screenshot({ path: path.join(shots, "phone-article.png") });
    await phone.close();
  });

  await check("escaped feed markup never runs", async () => {
    await page.goto(base + "/");
    const alerts = [];
    page.on("dialog", async (dialog) => { alerts.push(dialog.message()); await dialog.dismiss(); });
    assert.ok(await page.isVisible("text=<script>alert(1)</script>"));
    assert.deepEqual(alerts, []);
  });

  await check("readers: sign up, log out, log in, vote without reload, alt+a to the reading list", async () => {
    const readerContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
    const reader = watch(await readerContext.newPage());
    const email = `reader${Date.now()}@example.org`;
    await reader.goto(base + "/about");
    assert.match(await reader.textContent("header"), /Sign Up \[alt\+shift\+s\]/);
    assert.match(await reader.textContent("header"), /Log In \[alt\+shift\+l\]/);
    await Promise.all([reader.waitForNavigation(), reader.keyboard.press("Alt+Shift+KeyS")]);
    assert.match(reader.url(), /\/signup\?next=%2Fabout$/);
    await reader.fill("#email", email);
    await reader.fill("#password", "a long passphrase");
    await Promise.all([reader.waitForNavigation(), reader.click("form.account-form button[type=submit]")]);
    assert.match(reader.url(), /\/about$/);
    assert.ok(await reader.isVisible("text=Log out"));

    await Promise.all([reader.waitForNavigation(), reader.click("text=Log out")]);
    await Promise.all([reader.waitForNavigation(), reader.keyboard.press("Alt+Shift+KeyL")]);
    assert.match(reader.url(), /\/login\?next=/);
    await reader.fill("#email", email);
    await reader.fill("#password", "a long passphrase");
    await Promise.all([reader.waitForNavigation(), reader.click("form.account-form button[type=submit]")]);
    assert.ok(await reader.isVisible("text=Log out"));

    await reader.goto(base + articlePath);
    await reader.evaluate(() => { window.__noReload = true; });
    const before = await reader.textContent(".article form.vote .votes");
    await reader.click(".article form.vote button");
    await reader.waitForFunction((b) => document.querySelector(".article form.vote .votes").textContent !== b, before);
    assert.equal(await reader.textContent(".article form.vote .votes"), "1 vote");
    assert.equal(await reader.getAttribute(".article form.vote button", "aria-pressed"), "true");
    assert.equal(await reader.evaluate(() => window.__noReload), true, "voting did not reload the page");

    await Promise.all([reader.waitForNavigation(), reader.keyboard.press("Alt+KeyA")]);
    assert.match(reader.url(), /\/read\/\d+-lock-free-queues-part-2$/);
    assert.ok(await reader.isVisible("text=Remove from reading list"));
    assert.equal(await reader.textContent("[data-reading-count]"), "1");
    await reader.goto(base + "/reading-list");
    assert.equal(await reader.textContent("h1"), "Reading list");
    assert.ok(await reader.isVisible(".reading-list >> text=Lock-free queues, part 2"));
    await reader.screenshot({ path: path.join(shots, "reading-list.png") });
    await readerContext.close();
  });

  await check("a visitor's vote is kept across log-in and counted once logged in", async () => {
    const setup = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const email = `voter${Date.now()}@example.org`;
    await signUp(watch(await setup.newPage()), base, email);
    await setup.close();

    const visitorContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Not watched: the vote's 401 (the answer that sends a visitor to log in) is a console error by design.
    const visitor = await visitorContext.newPage();
    visitor.on("pageerror", (error) => pageErrors.push(String(error)));
    await visitor.goto(base + articlePath);
    const votesBefore = parseInt(await visitor.textContent(".article form.vote .votes"), 10) || 0;
    await Promise.all([visitor.waitForNavigation(), visitor.click(".article form.vote button")]);
    assert.match(visitor.url(), /\/login\?next=.*&then=vote%3A\d+$/);
    assert.match(await visitor.textContent("p.pending"), /Your vote for .Lock-free queues, part 2. counts as soon as you log in/);
    await visitor.fill("#email", email);
    await visitor.fill("#password", "a long passphrase");
    await Promise.all([visitor.waitForNavigation(), visitor.click("form.account-form button[type=submit]")]);
    assert.match(visitor.url(), /\/read\/\d+-lock-free-queues-part-2$/, "back on the article");
    assert.equal(await visitor.getAttribute(".article form.vote button", "aria-pressed"), "true");
    assert.equal(parseInt(await visitor.textContent(".article form.vote .votes"), 10), votesBefore + 1);
    await visitorContext.close();
  });

  await check("each control shows its shortcut beside it, as the original does", async () => {
    await page.goto(base + articlePath);
    const visibleText = (selector) => page.$eval(selector, (el) => el.innerText.replace(/\s+/g, " ").trim());
    assert.match(await visibleText(".article .from"), /^from Ada's Notebook \[alt\+shift\+b\] in Programming$/);
    assert.equal(await visibleText("a[data-shortcut='read']"), "Read now [→]");
    assert.equal(await visibleText("form[data-shortcut='reading-list'] button"), "Add to reading list [alt+a]");
    assert.equal(await visibleText("button[data-action='width']"), "Full Width [alt+shift+f]");
    assert.equal(await visibleText("button[data-action='theme']"), "Dark Mode [alt+shift+d]");
    assert.equal(await visibleText("button[data-action='shortcuts']"), "Shortcuts [alt+shift+k]");
    assert.match(await visibleText(".site-header .account"), /Sign Up \[alt\+shift\+s\]\s*Log In \[alt\+shift\+l\]/);
    // The hints are for sight only: the controls announce their keys with aria-keyshortcuts.
    assert.equal(await page.getAttribute("a[data-shortcut='blog']", "aria-keyshortcuts"), "Alt+Shift+B");
    assert.equal(await page.getAttribute("button[data-action='width']", "aria-label"), null);
    assert.equal(await page.getAttribute("button[data-action='theme']", "aria-pressed"), "false");
    await page.click("button[data-action='theme']");
    assert.equal(await page.getAttribute("button[data-action='theme']", "aria-pressed"), "true");
    await page.click("button[data-action='theme']");
    assert.equal(await page.getAttribute("button[data-action='theme']", "aria-pressed"), "false");
  });

  await check("the header fits one row at 1280 px, aligned with the content", async () => {
    for (const target of ["/", articlePath, "/search?q=queue"]) {
      await page.goto(base + target);
      assertOneRow(await headerItems(page), target);
      const brand = await rect(page, ".site-header .brand");
      const content = await rect(page, "main .content");
      assert.ok(Math.abs(brand.left - content.left) <= 1,
                `${target}: the brand starts where the content does (${brand.left} vs ${content.left})`);
      const header = await rect(page, ".site-header .wrap");
      const mainFrame = await rect(page, "main .wrap");
      assert.ok(Math.abs(header.left - mainFrame.left) <= 1 && Math.abs(header.right - mainFrame.right) <= 1,
                `${target}: header and main share one frame`);
      const controls = await rect(page, "main .controls");
      assert.ok(controls.right <= mainFrame.right + 1, `${target}: the controls stay inside the frame`);
    }
    await page.goto(base + "/");
    await page.screenshot({ path: path.join(shots, "header-1280.png"), clip: { x: 0, y: 0, width: 1280, height: 260 } });
  });

  await check("the shortcuts overlay keeps focus inside while open and gives it back", async () => {
    await page.goto(base + "/about");
    const opener = "button[data-action='shortcuts']";
    await page.focus(opener);
    await page.keyboard.press("Enter");
    await page.waitForSelector("#shortcuts", { state: "visible", timeout: 2000 });
    assert.ok(await activeInside(page, "#shortcuts"), "focus moves into the overlay");
    for (let i = 0; i < 4; i += 1) {
      await page.keyboard.press("Tab");
      assert.ok(await activeInside(page, "#shortcuts"), `Tab ${i + 1} keeps focus in the overlay`);
    }
    for (let i = 0; i < 3; i += 1) {
      await page.keyboard.press("Shift+Tab");
      assert.ok(await activeInside(page, "#shortcuts"), `shift+Tab ${i + 1} keeps focus in the overlay`);
    }
    // The page behind is inert: it cannot take focus while the overlay is open.
    await page.evaluate(() => document.getElementById("site-search").focus());
    assert.ok(await activeInside(page, "#shortcuts"), "the page behind cannot take focus");
    // Only what applies here: the about page has no list to move through and no article.
    const text = await page.innerText("#shortcuts");
    assert.match(text, /Search/);
    assert.match(text, /Sign up/);
    assert.doesNotMatch(text, /Next \/ previous article/);
    assert.doesNotMatch(text, /reading list/);
    await page.keyboard.press("Escape");
    await page.waitForSelector("#shortcuts", { state: "hidden", timeout: 2000 });
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute("data-action")), "shortcuts",
                 "focus returns to the control that opened the overlay");
    // On an article the article's own keys are listed.
    await page.goto(base + articlePath);
    await page.keyboard.press("Alt+Shift+KeyK");
    await page.waitForSelector("#shortcuts", { state: "visible", timeout: 2000 });
    assert.match(await page.innerText("#shortcuts"), /Add to or remove from reading list/);
    assert.match(await page.innerText("#shortcuts"), /The article’s blog/);
    await page.keyboard.press("Alt+Shift+KeyK");
    await page.waitForSelector("#shortcuts", { state: "hidden", timeout: 2000 });
  });

  await check("Open Graph tags describe the article and the other pages", async () => {
    await page.goto(base + articlePath);
    assert.equal(await metaContent(page, "property", "og:type"), "article");
    assert.equal(await metaContent(page, "property", "og:title"), "Lock-free queues, part 2");
    assert.equal(await metaContent(page, "property", "og:url"), await page.getAttribute("link[rel=canonical]", "href"));
    assert.equal(await metaContent(page, "property", "og:site_name"), "longread");
    assert.equal(await metaContent(page, "name", "twitter:card"), "summary");
    assert.match(await metaContent(page, "property", "og:description"), /^A queue that never takes a lock/);
    await page.goto(base + "/category/programming");
    assert.equal(await metaContent(page, "property", "og:type"), "website");
    assert.equal(await metaContent(page, "property", "og:title"), "Programming");
  });

  await check("the blog's Website and Feed are links, and look like links", async () => {
    await page.goto(base + articlePath);
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Alt+Shift+KeyB")]);
    for (const [label, href] of [["Website", "https://ada.example.com/"], ["Feed", "https://ada.example.com/feed.xml"]]) {
      const link = page.locator(".lede a", { hasText: label });
      assert.equal(await link.getAttribute("href"), href);
      assert.equal(await link.evaluate((el) => getComputedStyle(el).textDecorationLine), "underline");
    }
  });

  await check("the Hot pager says First page and More, Newest says Newest and Older (cursor links)", async () => {
    await page.goto(base + "/");
    assert.equal((await page.innerText(".pager")).trim(), "More →");
    await page.click(".pager a[rel=next]");
    assert.match(page.url(), /\/\?after=/);
    assert.match(await page.innerText(".pager"), /← First page/);
    assert.doesNotMatch(await page.innerText(".pager"), /Newer|Older/);
    await page.goto(base + "/newest");
    assert.equal((await page.innerText(".pager")).trim(), "Older →");
    await page.click(".pager a[rel=next]");
    assert.match(page.url(), /\/newest\?after=/);
    assert.match(await page.innerText(".pager"), /← Newest/);
  });

  await check("the newsletter box only where mail can be sent", async () => {
    await page.goto(base + articlePath);
    assert.equal(await page.$(".newsletter"), null, "no box on a site without mail");
    assert.equal((await page.goto(base + "/newsletter")).status(), 404);
    await page.goto(mailBase + articlePath);
    assert.ok(await page.isVisible(".newsletter >> text=Stay updated"));
  });

  await check("without JavaScript the controls and hints are not shown, and the page still works", async () => {
    const noJs = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const plain = watch(await noJs.newPage());
    await plain.goto(base + articlePath);
    for (const selector of ["button[data-action='width']", "button[data-action='theme']",
                            "button[data-action='shortcuts']", ".key", ".site-footer .js-only"]) {
      const shown = await plain.$$eval(selector, (els) => els.filter((el) => el.getClientRects().length > 0).length);
      assert.equal(shown, 0, `${selector} is hidden without JavaScript`);
    }
    assert.ok(await plain.isVisible("a[data-shortcut='read']"), "Read now still works");
    assert.equal((await plain.innerText("a[data-shortcut='read']")).trim(), "Read now");
    assertOneRow(await headerItems(plain), "no JavaScript");
    await plain.screenshot({ path: path.join(shots, "article-nojs.png") });
    await plain.fill("#site-search", "zeppelin");
    await Promise.all([plain.waitForNavigation(), plain.press("#site-search", "Enter")]);
    assert.ok((await plain.$$("[data-item]")).length >= 1, "search works without JavaScript");
    await noJs.close();
  });

  await check("password fields look like the other inputs, in light and dark mode", async () => {
    for (const colorScheme of ["light", "dark"]) {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
      const p = watch(await ctx.newPage());
      await p.goto(base + "/login");
      const style = (sel) => p.$eval(sel, (el) => {
        const c = getComputedStyle(el);
        return { bg: c.backgroundColor, border: c.borderTopColor, radius: c.borderTopLeftRadius,
                 padding: c.paddingLeft, font: c.fontFamily, size: c.fontSize, color: c.color };
      });
      const email = await style("#email");
      const password = await style("#password");
      assert.deepEqual(password, email, `${colorScheme}: the password field is styled like the email field`);
      const pageBg = await p.$eval("body", (el) => getComputedStyle(el).backgroundColor);
      if (colorScheme === "dark") {
        assert.ok(luminance(password.bg) < 60, `dark password field ${password.bg} on ${pageBg}`);
        await p.screenshot({ path: path.join(shots, "login-dark.png") });
      }
      await ctx.close();
    }
  });

  await check("phone, logged in: the header fits and the search box is usable", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2,
                                             isMobile: true, hasTouch: true, colorScheme: "light" });
    const p = watch(await phone.newPage());
    await signUp(p, base, `phone${Date.now()}@example.org`);
    for (const target of ["/", articlePath, "/reading-list", "/account"]) {
      await p.goto(base + target);
      const search = await rect(p, "#site-search");
      assert.ok(search.width >= 200, `${target}: the search box is ${search.width}px wide`);
      assert.ok((await p.evaluate(() => document.documentElement.scrollWidth)) <= 390, `${target}: no sideways scroll`);
      for (const item of await headerItems(p)) {
        assert.ok(item.left >= 0 && item.right <= 390, `${target}: ${item.name} fits (${item.left}..${item.right})`);
      }
      // Hints are for keyboards: a phone shows none, nor the Full Width and Shortcuts controls.
      assert.equal(await p.$$eval(".key", (els) => els.filter((el) => el.getClientRects().length > 0).length), 0);
      assert.equal(await p.isVisible("button[data-action='width']"), false);
      assert.equal(await p.isVisible("button[data-action='shortcuts']"), false);
      assert.ok(await p.isVisible("button[data-action='theme']"), "the theme toggle stays");
    }
    await p.goto(base + "/");
    await p.screenshot({ path: path.join(shots, "phone-reader.png") });
    await phone.close();
  });

  await check("for you: saves and votes bring fresh articles like them, each with its reason", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
    const reader = watch(await ctx.newPage());
    await signUp(reader, base, `foryou${Date.now()}@example.org`);
    await reader.goto(base + "/for-you");
    assert.ok(await reader.isVisible("[data-too-little-history]"), "too little history is said");
    // The lock-free article's stored similar picks are two "Register allocation" posts of another blog.
    await reader.goto(base + articlePath);
    await Promise.all([reader.waitForNavigation(), reader.click("text=Add to reading list")]);
    assert.ok(await reader.isVisible("text=Remove from reading list"));
    await reader.goto(base + "/category/history");
    for (const n of [1, 2]) {
      const button = `ol.items > li:nth-child(${n}) form.vote button`;
      await reader.click(button);
      await reader.waitForFunction((b) => document.querySelector(b).getAttribute("aria-pressed") === "true", button);
    }
    await Promise.all([reader.waitForNavigation(), reader.click("nav.nav >> text=For you")]);
    assert.match(reader.url(), /\/for-you$/);
    assert.equal(await reader.isVisible("[data-too-little-history]"), false);
    const reasons = await reader.$$eval("p.because", (ps) => ps.map((p) => p.textContent.trim()));
    assert.ok(reasons.length >= 1, "at least one pick");
    for (const r of reasons) assert.match(r, /^Because you saved Lock-free queues, part 2/);
    assert.ok(await reader.isVisible("ol.items >> text=Register allocation, week"));
    const problems = (await axeViolations(reader)).map((v) => `/for-you: ${v}`);
    assert.deepEqual(problems, []);
    await reader.screenshot({ path: path.join(shots, "for-you.png") });
    await ctx.close();
  });

  await check("axe-core: no serious or critical violations on any page, light and dark", async () => {
    const visitorPages = ["/", articlePath, "/blog/" + articlePath.split("/")[2], "/category/programming",
                          "/categories", "/search?q=queue", "/top?period=all", "/about", "/login", "/signup",
                          "/no/such/page"];
    const readerPages = ["/", "/account", "/reading-list", articlePath];
    const lightReader = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
    await signUp(watch(await lightReader.newPage()), base, `axe${Date.now()}@example.org`);
    const session = await lightReader.storageState();
    await lightReader.close();
    const problems = [];
    for (const colorScheme of ["light", "dark"]) {
      const runs = [[{}, visitorPages.map((t) => base + t).concat([mailBase + articlePath])],
                    [{ storageState: session }, readerPages.map((t) => base + t)]];
      for (const [options, urls] of runs) {
        const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme, ...options });
        const p = watch(await ctx.newPage());
        for (const url of urls) {
          await p.goto(url);
          for (const v of await axeViolations(p)) problems.push(`${colorScheme} ${url.replace(/^https?:\/\/[^/]+/, "")}: ${v}`);
        }
        await ctx.close();
      }
    }
    assert.deepEqual(problems, []);
    console.log(`     axe-core ${JSON.parse(readFileSync(createRequire(import.meta.url).resolve("axe-core/package.json"), "utf8")).version}: ` +
                `${(visitorPages.length + 1 + readerPages.length) * 2} page loads, 0 serious or critical`);
  });

  await check("no JavaScript errors on any page", async () => {
    assert.deepEqual(pageErrors, []);
  });
  await context.close();
} finally {
  await browser.close();
}

console.log(failures() === 0 ? `browser test passed; screenshots in ${shots}` : `${failures()} browser check(s) failed`);
process.exit(failures() === 0 ? 0 : 1);
