// Runs in <head> before first paint: applies the remembered theme and width so pages never flash.
// It also marks the page as scripted (data-js), which is what shows the controls and shortcut hints: without
// JavaScript they would do nothing, so the stylesheet keeps them hidden.
(function () {
  var root = document.documentElement;
  root.setAttribute("data-js", "");
  try {
    var theme = localStorage.getItem("longread.theme");
    if (theme === "dark" || theme === "light") root.setAttribute("data-theme", theme);
    if (localStorage.getItem("longread.width") === "full") root.setAttribute("data-width", "full");
  } catch (e) { /* storage disabled: defaults apply */ }
})();
