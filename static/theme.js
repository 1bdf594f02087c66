// Runs in <head> before first paint: applies the remembered theme and width so pages never flash.
(function () {
  try {
    var root = document.documentElement;
    var theme = localStorage.getItem("longread.theme");
    if (theme === "dark" || theme === "light") root.setAttribute("data-theme", theme);
    if (localStorage.getItem("longread.width") === "full") root.setAttribute("data-width", "full");
  } catch (e) { /* storage disabled: defaults apply */ }
})();
