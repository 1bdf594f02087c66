#!/usr/bin/env bash
# HTML5 validation ("pages validate as HTML5"): starts longread-testsite on a fresh SQLite file
# with the fixtures, saves every kind of page (as a visitor and as a logged-in reader, error pages and
# the account forms included; a second site in mail mode for the mailed-account pages) and checks them all
# with the W3C Nu Html Checker (npm's vnu-jar, on Debian's Java). Any error fails the test and is printed. Exit 77 (CTest: skipped) only when java or
# npm is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v java >/dev/null 2>&1; then
  echo "SKIPPED: java not installed (scripts/install-deps.sh test installs default-jre-headless)"; exit 77
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "SKIPPED: npm not installed (scripts/install-deps.sh test installs it)"; exit 77
fi
testsite="${LONGREAD_TESTSITE:?set LONGREAD_TESTSITE to the longread-testsite binary}"
vnu="$here/node_modules/vnu-jar/build/dist/vnu.jar"
if [ ! -f "$vnu" ]; then
  (cd "$here" && npm install --no-audit --no-fund --loglevel=error)
fi

work="$(mktemp -d)"
site_pids=()
cleanup() {
  for pid in "${site_pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# start_site NAME [testsite options...]: a seeded test site on a free port; sets $url and $seeded.
start_site() {
  local name="$1"; shift
  "$testsite" --db "$work/$name.db" --seed --quiet --threads 2 "$@" >"$work/$name.out" 2>"$work/$name.err" &
  site_pids+=($!)
  for _ in $(seq 1 100); do
    grep -q '^listening ' "$work/$name.out" 2>/dev/null && break
    sleep 0.1
  done
  url="$(sed -n 's/^listening //p' "$work/$name.out")"
  if [ -z "$url" ]; then
    echo "longread-testsite did not start:"; cat "$work/$name.out" "$work/$name.err"; exit 1
  fi
  seeded="$(grep '^seeded ' "$work/$name.out")"
}
start_site site
field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$seeded"; }
article="$(field lock_free_article)"; blog="$(field ada_blog)"
evil_article="$(field evil_article)"; evil_blog="$(field evil_blog)"

mkdir -p "$work/pages"
n=0
# save NAME PATH [curl options...]: the page as served (redirects followed), whatever its status.
save() {
  local name="$1" path="$2"; shift 2
  curl -sS -L -o "$work/pages/$name.html" "$@" "$url$path"
  n=$((n + 1))
}
visitor_pages() {
  local prefix="$1"; shift
  save "$prefix-front" / "$@"
  save "$prefix-front-page2" "/?page=2" "$@"
  save "$prefix-newest" /newest "$@"
  save "$prefix-top" "/top?period=all" "$@"
  save "$prefix-article" "/blog/$blog/read/$article" "$@"
  save "$prefix-evil-article" "/blog/$evil_blog/read/$evil_article" "$@"
  save "$prefix-blog" "/blog/$blog" "$@"
  save "$prefix-evil-blog" "/blog/$evil_blog" "$@"
  save "$prefix-category" /category/programming "$@"
  save "$prefix-categories" /categories "$@"
  save "$prefix-blogs" /blogs "$@"
  save "$prefix-about" /about "$@"
  save "$prefix-search" "/search?q=queue" "$@"
  save "$prefix-search-empty" /search "$@"
  save "$prefix-search-none" "/search?q=zzzzunfound" "$@"
  save "$prefix-not-found" /no/such/page "$@"
  save "$prefix-bad-article" "/blog/$blog/read/999999" "$@"
}
visitor_pages visitor
save signup /signup
save login /login
save newsletter /newsletter
save forgot /password/forgot
save confirm-form "/account/confirm?email=a%40example.org&expires=4102444800&sig=x"
save bad-link /account/confirm
save bad-reset "/password/reset?email=a%40example.org&expires=1&sig=x"
save reading-list-visitor /reading-list
# A failed sign-up (short password) and a failed login re-render their forms with a message.
jar="$work/cookies"
token() { sed -n 's/.*name="csrf" value="\([^"]*\)".*/\1/p' "$1" | head -n 1; }
curl -sS -c "$jar" -b "$jar" -o "$work/form.html" "$url/signup"
save signup-error /signup -c "$jar" -b "$jar" --data-urlencode "csrf=$(token "$work/form.html")" \
  --data-urlencode "email=reader@example.org" --data-urlencode "password=short"
# A reader: sign up (the test site sends no mail, so this logs in), save the article, look again.
curl -sS -c "$jar" -b "$jar" -o "$work/form.html" "$url/signup"
curl -sS -c "$jar" -b "$jar" -o /dev/null --data-urlencode "csrf=$(token "$work/form.html")" \
  --data-urlencode "email=reader@example.org" --data-urlencode "password=a long passphrase" "$url/signup"
grep -q 'lr_session' "$jar" || { echo "sign-up did not log in"; exit 1; }
curl -sS -c "$jar" -b "$jar" -L -o "$work/article.html" "$url/blog/$blog/read/$article"
curl -sS -c "$jar" -b "$jar" -o /dev/null --data-urlencode "csrf=$(token "$work/article.html")" \
  --data-urlencode "action=add" "$url/reading-list/$article"
visitor_pages reader -b "$jar"
save reader-reading-list /reading-list -b "$jar"
save reader-account /account -b "$jar"
save reader-account-changed "/account?done=password" -b "$jar"
# The suggestion form, and the account page listing one suggestion (its status is whatever discovery, which
# cannot reach the address from here, has made of it by then).
save reader-suggest /suggest -b "$jar"
curl -sS -c "$jar" -b "$jar" -o /dev/null --data-urlencode "csrf=$(token "$work/pages/reader-suggest.html")" \
  --data-urlencode "url=https://suggested.example/" --data-urlencode "note=A <b>note</b>" "$url/suggest"
save reader-account-suggested "/account?done=suggested" -b "$jar"

# A site that sends mail (accounts confirmed by mail; --mail-links writes each mail's link to a file):
# "check your inbox", the confirmation and new-password forms from real links, a too-short new password,
# a pending account's login, and "forgot your password" answered.
links="$work/mail-links"
start_site mailed --mail-links "$links"
jar="$work/mailed-cookies"
link_path() { awk -v k="$1" '$1 == k { u = $3 } END { print u }' "$links" | sed 's|^[a-z]*://[^/]*||'; }
curl -sS -c "$jar" -b "$jar" -o "$work/form.html" "$url/signup"
save mailed-signup-sent /signup -c "$jar" -b "$jar" --data-urlencode "csrf=$(token "$work/form.html")" \
  --data-urlencode "email=new@example.org" --data-urlencode "password=a long passphrase"
save mailed-login-pending /login -c "$jar" -b "$jar" --data-urlencode "csrf=$(token "$work/form.html")" \
  --data-urlencode "email=new@example.org" --data-urlencode "password=a long passphrase"
[ -n "$(link_path confirm)" ] || { echo "no confirmation link was mailed"; cat "$links"; exit 1; }
save mailed-confirm-form "$(link_path confirm)" -c "$jar" -b "$jar"
save mailed-forgot-sent /password/forgot -c "$jar" -b "$jar" --data-urlencode "csrf=$(token "$work/form.html")" \
  --data-urlencode "email=new@example.org"
# The reset mail is looked up and queued off the request path (the answer must not take longer for a
# registered address), so its link is written a moment after the answer: wait up to 10 s for it.
for _ in $(seq 100); do [ -n "$(link_path reset)" ] && break; sleep 0.1; done
[ -n "$(link_path reset)" ] || { echo "no reset link was mailed"; cat "$links"; exit 1; }
save mailed-reset-form "$(link_path reset)" -c "$jar" -b "$jar"
reset_path="$(link_path reset)"
reset_fields="${reset_path#*\?}"
save mailed-reset-weak /password/reset -c "$jar" -b "$jar" --data-urlencode "csrf=$(token "$work/form.html")" \
  --data "$reset_fields" --data-urlencode "password=short"
save mailed-forgot-form /password/forgot
# Only a site that sends mail has the newsletter: the article page's box and the form.
save mailed-article "/blog/$blog/read/$article"
save mailed-newsletter /newsletter
# Each of those is the page meant, not an error page that happens to validate.
expect() { grep -q "$2" "$work/pages/$1.html" || { echo "$1.html lacks \"$2\""; exit 1; }; }
expect mailed-signup-sent "Check your inbox"
expect mailed-login-pending "Please confirm your address first"
expect mailed-confirm-form "Confirm and log in"
expect mailed-forgot-sent "a link to set a new password is on its way"
expect mailed-reset-form "Set password and log in"
expect mailed-reset-weak "Please choose a password of at least 10 characters."
expect mailed-article "Stay updated"
expect mailed-newsletter "Plain text, no tracking"
expect reader-front "Log out"
expect reader-account "Delete my account"
expect reader-suggest "Suggest this blog"
expect reader-account-suggested "https://suggested.example/"
expect reader-reading-list "Lock-free queues, part 2"

out="$(java -jar "$vnu" --errors-only --format gnu "$work"/pages/*.html 2>&1 || true)"
if [ -n "$out" ]; then
  sed "s|$work/pages/||g" <<<"$out"
  echo "html validation: $(grep -c 'error' <<<"$out") errors in $n pages"
  exit 1
fi
echo "html validation: $n pages, 0 errors (Nu Html Checker $(java -jar "$vnu" --version))"
