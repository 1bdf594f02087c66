// Keyboard shortcuts, the dark-mode and full-width toggles, and a reader's read marks posted in place.
// Everything else works without JavaScript.
(function () {
  "use strict";
  var root = document.documentElement;

  function store(key, value) {
    try {
      if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value);
    } catch (e) { /* storage disabled: the toggle lasts for this page only */ }
  }

  function isDark() {
    var theme = root.getAttribute("data-theme");
    if (theme) return theme === "dark";
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  }

  // The toggles say whether they are on (aria-pressed), for screen readers and the stylesheet.
  function showState() {
    var full = root.getAttribute("data-width") === "full", dark = isDark();
    document.querySelectorAll("[data-action='width']").forEach(function (b) {
      b.setAttribute("aria-pressed", full ? "true" : "false");
    });
    document.querySelectorAll("[data-action='theme']").forEach(function (b) {
      b.setAttribute("aria-pressed", dark ? "true" : "false");
    });
  }

  function toggleTheme() {
    var next = isDark() ? "light" : "dark";
    root.setAttribute("data-theme", next);
    store("longread.theme", next);
    showState();
  }

  function toggleWidth() {
    var full = root.getAttribute("data-width") === "full";
    if (full) root.removeAttribute("data-width"); else root.setAttribute("data-width", "full");
    store("longread.width", full ? null : "full");
    showState();
  }

  // The shortcuts overlay is a modal <dialog>: the rest of the page is inert while it is open, Tab and
  // shift+Tab cycle inside it, Escape closes it, and focus goes back to whatever opened it (WAI-ARIA
  // Authoring Practices, "Dialog (Modal)" pattern).
  var overlay = document.getElementById("shortcuts");
  var opener = null;
  function overlayOpen() { return !!(overlay && overlay.open); }
  function focusables() {
    return Array.prototype.filter.call(
      overlay.querySelectorAll("a[href], button, input, select, textarea, [tabindex]"),
      function (el) { return !el.disabled && el.getClientRects().length > 0 && el.tabIndex >= 0; });
  }
  function toggleOverlay(show) {
    if (!overlay || !overlay.showModal) return;
    var visible = show === undefined ? !overlay.open : show;
    if (visible && !overlay.open) {
      opener = document.activeElement;
      overlay.showModal();
      var first = focusables()[0];
      if (first) first.focus();
    } else if (!visible && overlay.open) {
      overlay.close();
    }
  }
  if (overlay) {
    // Rows for what this page lacks (no list to move through, no article) are left out.
    overlay.querySelectorAll("[data-requires]").forEach(function (row) {
      row.hidden = !document.querySelector(row.getAttribute("data-requires"));
    });
    overlay.addEventListener("close", function () {
      var back = opener;
      opener = null;
      if (back && back !== document.body && typeof back.focus === "function" && document.contains(back)) {
        back.focus();
      }
    });
    overlay.addEventListener("cancel", function (event) { event.preventDefault(); toggleOverlay(false); });
    // A click on the dialog's own box, outside the panel, is a click on the backdrop.
    overlay.addEventListener("click", function (event) { if (event.target === overlay) toggleOverlay(false); });
    overlay.addEventListener("keydown", function (event) {
      if (event.key !== "Tab") return;
      var list = focusables();
      if (!list.length) { event.preventDefault(); return; }
      var first = list[0], last = list[list.length - 1];
      var inside = overlay.contains(document.activeElement);
      if (event.shiftKey && (document.activeElement === first || !inside)) { event.preventDefault(); last.focus(); }
      else if (!event.shiftKey && (document.activeElement === last || !inside)) { event.preventDefault(); first.focus(); }
    });
    // Focus that lands outside while the dialog is open (a click on the page, a screen reader) comes back.
    document.addEventListener("focusin", function (event) {
      if (overlay.open && !overlay.contains(event.target)) {
        var first = focusables()[0];
        if (first) first.focus();
      }
    });
  }

  var items = Array.prototype.slice.call(document.querySelectorAll("[data-item]"));
  var current = -1;
  function moveCurrent(step) {
    if (!items.length) return;
    if (current >= 0) items[current].classList.remove("is-current");
    current = Math.max(0, Math.min(items.length - 1, current + step));
    var item = items[current];
    item.classList.add("is-current");
    item.scrollIntoView({ block: "nearest" });
    var link = item.querySelector("h2 a, h3 a");
    if (link) link.focus({ preventScroll: true });
  }

  // Read state (docs/readers.md, "Personal filters"). A logged-in reader's page carries their CSRF token
  // (body data-csrf); a mark is posted as the read toggle's form posts it, with fetch, and shown at once.
  // Following "Read now" marks the article read as Miniflux does: a POST on click, never a state change
  // on a GET. keepalive lets the request finish while the browser leaves for the original.
  var csrf = document.body.getAttribute("data-csrf");
  function readHolder(el) { return el ? el.closest("[data-article]") : null; }
  function showRead(holder, read) {
    holder.classList.toggle("is-read", read);
    var form = holder.querySelector("form[data-read-toggle]");
    if (!form) return;
    form.querySelector("input[name='action']").value = read ? "unread" : "read";
    form.querySelector("button").setAttribute("aria-pressed", read ? "true" : "false");
  }
  function setRead(holder, read, keepalive) {
    if (!csrf || !holder || !window.fetch) return;
    showRead(holder, read);
    fetch("/articles/" + encodeURIComponent(holder.getAttribute("data-article")) + "/read", {
      method: "POST",
      headers: { "Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded" },
      body: "csrf=" + encodeURIComponent(csrf) + "&action=" + (read ? "read" : "unread"),
      credentials: "same-origin",
      keepalive: !!keepalive
    }).then(function (response) {
      if (!response.ok) showRead(holder, !read);
    }).catch(function () { showRead(holder, !read); });
  }
  function followed(link) {
    if (!link || !link.hasAttribute("data-read-now")) return;
    var holder = readHolder(link);
    if (holder && !holder.classList.contains("is-read")) setRead(holder, true, true);
  }
  // The article a key acts on: the highlighted list item, else the article of an article page.
  function selectedArticle() {
    if (current >= 0) return items[current];
    return document.querySelector("article[data-article]");
  }
  function toggleRead() {
    var holder = selectedArticle();
    if (!holder || !holder.querySelector("form[data-read-toggle]")) return false;
    setRead(holder, !holder.classList.contains("is-read"), false);
    return true;
  }
  if (csrf) {
    ["click", "auxclick"].forEach(function (type) {
      document.addEventListener(type, function (event) {
        if (type === "auxclick" && event.button !== 1) return;
        followed(event.target.closest ? event.target.closest("a[data-read-now]") : null);
      });
    });
    document.querySelectorAll("form[data-read-toggle]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        var holder = readHolder(form);
        if (!holder || !window.fetch) return;
        event.preventDefault();
        setRead(holder, form.querySelector("input[name='action']").value === "read", false);
      });
    });
    // "Mark as read when scrolled past" (a setting, off by default): an item whose bottom has gone above
    // the top of the viewport is marked read, once.
    if (document.body.hasAttribute("data-mark-read-on-scroll") && window.IntersectionObserver) {
      var watcher = new IntersectionObserver(function (entries) {
        entries.forEach(function (entry) {
          var top = entry.rootBounds ? entry.rootBounds.top : 0;
          if (entry.isIntersecting || entry.boundingClientRect.bottom > top) return;
          watcher.unobserve(entry.target);
          if (!entry.target.classList.contains("is-read")) setRead(entry.target, true, false);
        });
      });
      items.forEach(function (item) {
        if (item.hasAttribute("data-article") && item.querySelector("form[data-read-toggle]")) watcher.observe(item);
      });
    }
  }

  function follow(selector) {
    var link = document.querySelector(selector);
    if (link && link.href) { followed(link); window.location.href = link.href; return true; }
    return false;
  }

  function readNow() {
    if (follow("[data-shortcut='read']")) return;
    if (current >= 0) {
      var link = items[current].querySelector("h2 a, h3 a");
      if (link) { followed(link); window.location.href = link.href; }
    }
  }

  function typing(target) {
    if (!target) return false;
    var tag = target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
  }

  document.addEventListener("keydown", function (event) {
    // While the overlay is open only its own keys work: Escape, the keys that toggle it, and Tab (above).
    if (overlayOpen()) {
      if (event.key === "Escape" || event.key === "?" ||
          (event.altKey && event.shiftKey && event.code === "KeyK")) {
        event.preventDefault();
        toggleOverlay(false);
      }
      return;
    }
    // Alt changes event.key on macOS (alt+k types "˚"), so combinations with alt match on event.code.
    if (event.altKey && event.shiftKey && !event.ctrlKey && !event.metaKey) {
      var handled = true;
      if (event.code === "KeyK") toggleOverlay();
      else if (event.code === "KeyB") follow("[data-shortcut='blog']");
      else if (event.code === "KeyF") toggleWidth();
      else if (event.code === "KeyD") toggleTheme();
      else if (event.code === "KeyS") { if (!follow("[data-shortcut='signup']")) handled = false; }
      else if (event.code === "KeyL") { if (!follow("[data-shortcut='login']")) handled = false; }
      else handled = false;
      if (handled) event.preventDefault();
      return;
    }
    if (event.altKey && !event.shiftKey && !event.ctrlKey && !event.metaKey && event.code === "KeyA") {
      var form = document.querySelector("form[data-shortcut='reading-list']");
      if (form) { event.preventDefault(); form.requestSubmit ? form.requestSubmit() : form.submit(); }
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
    switch (event.key) {
      case "ArrowRight": case "o": readNow(); break;
      case "j": moveCurrent(1); break;
      case "k": moveCurrent(-1); break;
      case "m": if (!toggleRead()) return; break;
      case "/": {
        var search = document.querySelector("input[type='search']");
        if (search) { event.preventDefault(); search.focus(); search.select(); }
        return;
      }
      case "?": toggleOverlay(); break;
      default: return;
    }
    event.preventDefault();
  });

  // Votes without a reload: the form posts with Accept: application/json and the button shows the new
  // count. A visitor is sent to log in (the server answers 401 with where to go).
  document.querySelectorAll("form[data-vote]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.fetch) return;
      event.preventDefault();
      fetch(form.action, {
        method: "POST",
        headers: { "Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(new FormData(form)).toString(),
        credentials: "same-origin"
      }).then(function (response) {
        return response.json().then(function (data) { return { status: response.status, data: data }; });
      }).then(function (result) {
        if (result.status === 401 && result.data.login) { window.location.href = result.data.login; return; }
        if (result.status !== 200) { window.alert(result.data.error || "The vote did not go through."); return; }
        var voted = result.data.voted, votes = result.data.votes;
        form.action = form.action.replace(/\/(un)?vote$/, voted ? "/unvote" : "/vote");
        var button = form.querySelector("button");
        button.setAttribute("aria-pressed", voted ? "true" : "false");
        button.title = voted ? "Withdraw your vote" : "Vote for this article";
        var count = form.querySelector(".votes");
        if (count) count.textContent = votes + (votes === 1 ? " vote" : " votes");
      }).catch(function () { form.submit(); });
    });
  });

  showState();
  if (window.matchMedia) {
    var scheme = window.matchMedia("(prefers-color-scheme: dark)");
    if (scheme.addEventListener) scheme.addEventListener("change", showState);
  }
  document.querySelectorAll("[data-action]").forEach(function (button) {
    button.addEventListener("click", function () {
      var action = button.getAttribute("data-action");
      if (action === "theme") toggleTheme();
      else if (action === "width") toggleWidth();
      else if (action === "shortcuts") toggleOverlay();
      else if (action === "close-shortcuts") toggleOverlay(false);
    });
  });
})();
