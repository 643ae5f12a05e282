/* Shared Chart.js set-up for tierscope pages: data loading, tier colours, number formats. Chart.js itself is the
   vendored classic script, read from its global Chart. */
const PALETTE = ["#64748b", "#d97706", "#7c3aed", "#0891b2", "#16a34a", "#dc2626", "#db2777", "#4f46e5"];
const tierColours = new Map();

Chart.defaults.animation = false; // draw at once: pages are read, not watched
Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
Chart.defaults.font.size = 12;
Chart.defaults.color = "#4b5563";
Chart.defaults.borderColor = "#e5e7eb";
Chart.defaults.plugins.legend.labels.boxWidth = 12;
Chart.defaults.maintainAspectRatio = false;

function data(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

function tierColour(name) {
  if (!tierColours.has(name)) tierColours.set(name, PALETTE[tierColours.size % PALETTE.length]);
  return tierColours.get(name);
}

function paintTierDots() {
  document.querySelectorAll(".tier-dot[data-tier]").forEach(function (dot) {
    dot.style.background = tierColour(dot.dataset.tier);
  });
}

function sig(n, digits) {
  if (n === null || n === undefined || isNaN(n)) return "—";
  const abs = Math.abs(n);
  if (abs === 0) return "0";
  if (abs >= Math.pow(10, (digits || 3) - 1)) return Math.round(n).toLocaleString("en-US");
  return Number(n.toPrecision(digits || 3)).toLocaleString("en-US", { maximumSignificantDigits: digits || 3 });
}

const fmt = {
  sig: sig,
  gb: function (gb) { return gb >= 1024 ? sig(gb / 1024) + " TB" : gb < 1 ? sig(gb * 1024) + " MB" : sig(gb) + " GB"; },
  iops: function (n) { return sig(n) + " IOPS"; },
  intensity: function (n) { return sig(n) + " IO/s per GB"; },
  usd: function (n) { return "$" + n.toLocaleString("en-US", { maximumFractionDigits: n >= 1000 ? 0 : 2, minimumFractionDigits: n >= 1000 ? 0 : 2 }); },
  pct: function (n) { return n === null ? "—" : n.toFixed(1) + "%"; },
  mb: function (n) { return n >= 1024 ? sig(n / 1024) + " GB" : sig(n) + " MB"; },
};

// Log axes: label only 1-2-5 steps so the ticks stay readable.
function logTicks(formatter) {
  return {
    callback: function (value) {
      const lead = value / Math.pow(10, Math.floor(Math.log10(value)));
      return [1, 2, 5].some(function (d) { return Math.abs(lead - d) < 1e-9; }) ? formatter(value) : "";
    },
    autoSkip: false,
  };
}

function isDecade(value) {
  return Math.abs(Math.log10(value) - Math.round(Math.log10(value))) < 1e-9;
}
// Log axes: grid lines on powers of ten only.
const logGrid = { color: function (ctx) { return ctx.tick && isDecade(ctx.tick.value) ? "#d1d5db" : "rgba(0,0,0,0)"; } };

function make(canvasId, config) {
  const canvas = document.getElementById(canvasId);
  if (!canvas) return null;
  return new Chart(canvas, config);
}

// Draws each of a page's charts on its own ({canvas id: function drawing it}): one whose data or drawing fails
// says so in its place, in words and on the console, and the page's other charts are drawn all the same.
function drawEach(charts) {
  Object.entries(charts).forEach(function ([canvasId, draw]) {
    try {
      draw();
    } catch (error) {
      console.error("chart " + canvasId + " not drawn:", error);
      const canvas = document.getElementById(canvasId);
      if (!canvas) return;
      Chart.getChart(canvas)?.destroy();
      const note = document.createElement("p");
      note.className = "chart-failed";
      note.setAttribute("role", "alert");
      note.dataset.chart = canvasId;
      note.textContent = "This chart could not be drawn (" + error.message + "). The page's other figures are "
        + "not affected; the browser's console has the details.";
      canvas.replaceWith(note);
    }
  });
}

// MB held in the Smart Flash Cache and the buffer cache, stacked: per snapshot (columns, the segment page) or
// per segment (horizontal bars, the target page).
function residencyChart(canvasId, d, horizontal) {
  const mb = { stacked: true, title: { display: true, text: "MB cached" }, ticks: { callback: function (v) { return sig(v) + " MB"; } } };
  return make(canvasId, {
    type: "bar",
    data: {
      labels: d.labels,
      datasets: [
        { label: "Smart Flash Cache", data: d.flashMb, backgroundColor: "#7c3aed" },
        { label: "Buffer cache", data: d.cacheMb, backgroundColor: "#0891b2" },
      ],
    },
    options: {
      indexAxis: horizontal ? "y" : "x",
      scales: horizontal ? { x: mb, y: { stacked: true, ticks: { font: { size: 11 } } } }
        : { x: { stacked: true }, y: Object.assign({ beginAtZero: true }, mb) },
      plugins: { legend: { position: "bottom" }, tooltip: { callbacks: { label: function (i) { return i.dataset.label + ": " + fmt.mb(i.raw); } } } },
    },
  });
}

export { data, tierColour, paintTierDots, fmt, logTicks, logGrid, make, drawEach, residencyChart };
