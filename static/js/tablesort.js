/* Click-to-sort for <table class="sortable">: numbers by data-value, text by content. */
document.querySelectorAll("table.sortable").forEach(function (table) {
  const headers = table.querySelectorAll("thead th");
  headers.forEach(function (th, column) {
    th.classList.add("clickable");
    th.addEventListener("click", function () {
      const numeric = th.dataset.sort === "num";
      const descending = th.getAttribute("aria-sort") !== "descending";
      headers.forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", descending ? "descending" : "ascending");
      const body = table.tBodies[0];
      const rows = Array.from(body.rows).filter(function (r) { return r.cells.length === headers.length; });
      const key = function (row) {
        const cell = row.cells[column];
        const raw = cell.dataset.value !== undefined ? cell.dataset.value : cell.textContent.trim();
        if (!numeric) return raw.toLowerCase();
        return raw === "" ? -Infinity : parseFloat(raw); // blanks ("—") sort last when descending
      };
      rows.sort(function (a, b) {
        const ka = key(a), kb = key(b);
        const order = ka < kb ? -1 : ka > kb ? 1 : 0;
        return descending ? -order : order;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
