// What the browser tests share: Debian's Chromium, launched headless with nothing that reaches beyond
// 127.0.0.1, and named checks that log "ok" or "FAIL" and go on, so one run reports every failure.
import { chromium } from "playwright-core";

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
