// Drives Debian's Chromium against a running longread-testsite (started by run.sh) and checks what only a
// browser can: keyboard shortcuts, the overlay, j/k highlight, full width, dark mode, phone layout.
import assert from "node:assert/strict";
import path from "node:path";
import { chromium } from "playwright-core";

const base = process.env.SITE_URL;
const articlePath = process.env.ARTICLE_PATH;
const shots = process.env.SCREENSHOTS;
assert.ok(base && articlePath && shots, "SITE_URL, ARTICLE_PATH and SCREENSHOTS must be set");

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"],
});

let failures = 0;
async function check(name, fn) {
  try {
    await fn();
    console.log(`ok   ${name}`);
  } catch (error) {
    failures += 1;
    console.log(`FAIL ${name}\n     ${String(error && error.stack || error).split("\n").slice(0, 4).join("\n     ")}`);
  }
}

const pageErrors = [];
function watch(page) {
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  page.on("console", (msg) => { if (msg.type() === "error") pageErrors.push(msg.text()); });
  return page;
}

const luminance = (rgb) => {
  const [r, g, b] = rgb.match(/\d+/g).map(Number);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const mainWidth = (page) => page.$eval("main .wrap", (el) => el.getBoundingClientRect().width);
const currentIndex = (page) =>
  page.$$eval("[data-item]", (items) => items.findIndex((item) => item.classList.contains("is-current")));

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

  await check("no JavaScript errors on any page", async () => {
    assert.deepEqual(pageErrors, []);
  });
  await context.close();
} finally {
  await browser.close();
}

console.log(failures === 0 ? `browser test passed; screenshots in ${shots}` : `${failures} browser check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
