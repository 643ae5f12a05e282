/* Target page charts: intensity x size scatter, skew curve, tier cost, residency, flash-cache hits. */
import * as TS from "./common.js";

const fmt = TS.fmt;

function scatter() {
  const d = TS.data("data-scatter");
  if (!d) return;
  const all = d.series.flatMap(function (s) { return s.points; });
  const xs = all.map(function (p) { return p.x; });
  const xMin = xs.length ? Math.min.apply(null, xs) / 2 : 0.01;
  const xMax = xs.length ? Math.max.apply(null, xs) * 2 : 1000;
  const datasets = d.series.map(function (s) {
    const colour = TS.tierColour(s.tier);
    return { label: s.tier, data: s.points, backgroundColor: colour + "b3", borderColor: colour, pointRadius: 4, pointHoverRadius: 6 };
  });
  d.breakEvens.forEach(function (b) {
    datasets.push({
      type: "line", label: "break-even " + b.label + " = " + fmt.intensity(b.intensity),
      data: [{ x: xMin, y: b.intensity }, { x: xMax, y: b.intensity }],
      borderColor: "#111827", borderDash: [6, 4], borderWidth: 1.5, pointRadius: 0, fill: false, isBreakEven: true,
    });
  });
  TS.make("chart-scatter", {
    type: "scatter",
    data: { datasets: datasets },
    options: {
      scales: {
        x: { type: "logarithmic", min: xMin, max: xMax, title: { display: true, text: "Segment size (GB, log)" }, ticks: TS.logTicks(function (v) { return fmt.sig(v) + " GB"; }), grid: TS.logGrid },
        y: { type: "logarithmic", title: { display: true, text: "IO intensity (IO/s per GB, log)" }, ticks: TS.logTicks(fmt.sig), grid: TS.logGrid },
      },
      plugins: {
        legend: { position: "bottom" },
        tooltip: {
          filter: function (item) { return !item.dataset.isBreakEven; },
          callbacks: {
            title: function (items) { return items[0].raw.name; },
            label: function (item) {
              const p = item.raw;
              return [fmt.gb(p.x) + " · " + fmt.iops(p.iops), fmt.intensity(p.y) + " → " + item.dataset.label];
            },
          },
        },
      },
      onClick: function (evt, elements, chart) {
        if (!elements.length) return;
        const p = chart.data.datasets[elements[0].datasetIndex].data[elements[0].index];
        if (p.id) window.location.href = "segments/" + p.id + "/";
      },
    },
  });
}

// Dashed guides from both axes to each call-out point (80% of IO by default).
const calloutGuides = {
  id: "calloutGuides",
  afterDatasetsDraw: function (chart, args, opts) {
    const ctx = chart.ctx, x = chart.scales.x, y = chart.scales.y;
    (opts.points || []).forEach(function (c) {
      const px = x.getPixelForValue(c.capacity_pct), py = y.getPixelForValue(c.io_pct);
      ctx.save();
      ctx.strokeStyle = "#dc2626"; ctx.setLineDash([4, 3]); ctx.lineWidth = 1;
      ctx.beginPath(); ctx.moveTo(x.left, py); ctx.lineTo(px, py); ctx.lineTo(px, y.bottom); ctx.stroke();
      ctx.setLineDash([]); ctx.fillStyle = "#dc2626"; ctx.font = "600 12px system-ui, sans-serif";
      ctx.fillText(c.capacity_pct.toFixed(1) + "% of capacity → " + c.io_pct + "% of IO", px + 6, py + 16);
      ctx.restore();
    });
  },
};

function skew() {
  const d = TS.data("data-skew");
  if (!d) return;
  const at80 = d.callouts.filter(function (c) { return c.io_pct === 80; });
  TS.make("chart-skew", {
    type: "scatter",
    data: {
      datasets: [
        { label: "Cumulative IO share", data: d.points, showLine: true, borderColor: "#2563eb", backgroundColor: "#2563eb33", fill: true, pointRadius: 0, borderWidth: 2 },
        { label: "No skew (uniform)", data: [{ x: 0, y: 0 }, { x: 100, y: 100 }], showLine: true, borderColor: "#9ca3af", borderDash: [5, 4], pointRadius: 0, borderWidth: 1 },
      ],
    },
    options: {
      scales: {
        x: { min: 0, max: 100, title: { display: true, text: "Share of capacity (%), hottest first" } },
        y: { min: 0, max: 100, title: { display: true, text: "Share of IO (%)" } },
      },
      plugins: {
        legend: { position: "bottom" },
        calloutGuides: { points: at80 },
        tooltip: { callbacks: { label: function (i) { return fmt.pct(i.raw.x) + " of capacity → " + fmt.pct(i.raw.y) + " of IO"; } } },
      },
    },
    plugins: [calloutGuides],
  });
}

function cost() {
  const d = TS.data("data-cost");
  if (!d) return;
  TS.make("chart-cost", {
    type: "bar",
    data: {
      labels: d.labels,
      datasets: d.series.map(function (s) { return { label: s.tier, data: s.values, backgroundColor: TS.tierColour(s.tier) }; }),
    },
    options: {
      scales: { x: { stacked: true }, y: { stacked: true, title: { display: true, text: "Cost (" + (d.unit || "USD") + ")" }, ticks: { callback: function (v) { return fmt.usd(v); } } } },
      plugins: {
        legend: { position: "bottom" },
        tooltip: { callbacks: { label: function (i) { return i.dataset.label + ": " + fmt.usd(i.raw); }, footer: function (items) { return "Total " + fmt.usd(d.totals[items[0].dataIndex]); } } },
      },
    },
  });
}

function residency() {
  const d = TS.data("data-residency");
  if (d && d.labels.length) TS.residencyChart("chart-residency", d, true);
}

function flash() {
  const d = TS.data("data-flash");
  if (!d || !d.labels.length) return;
  TS.make("chart-flash", {
    type: "line",
    data: {
      labels: d.labels,
      datasets: [
        { label: "Hit ratio (%)", data: d.hitRatioPct, borderColor: "#7c3aed", backgroundColor: "#7c3aed22", fill: true, yAxisID: "y", pointRadius: 0, borderWidth: 2, tension: 0.2 },
        { label: "Smart Flash Cache hits/s", data: d.hitsPerS, borderColor: "#16a34a", yAxisID: "y1", pointRadius: 0, borderWidth: 1.5 },
        { label: "Smart Flash Cache inserts/s", data: d.insertsPerS, borderColor: "#d97706", yAxisID: "y1", pointRadius: 0, borderWidth: 1.5, borderDash: [4, 3] },
      ],
    },
    options: {
      interaction: { mode: "index", intersect: false },
      scales: {
        x: { ticks: { maxTicksLimit: 12, maxRotation: 0, autoSkipPadding: 12 } },
        y: { min: 0, max: 100, position: "left", title: { display: true, text: "Hit ratio (%)" } },
        y1: { min: 0, position: "right", grid: { drawOnChartArea: false }, title: { display: true, text: "per second" }, ticks: { callback: function (v) { return fmt.sig(v); } } },
      },
      plugins: { legend: { position: "bottom" } },
    },
  });
}

// The scatter, drawn first, registers the tiers' colours in its payload's order (by intensity); the cost chart and
// the tier dots take the same colours.
TS.drawEach({ "chart-scatter": scatter, "chart-skew": skew, "chart-cost": cost, "chart-residency": residency,
  "chart-flash": flash });
TS.paintTierDots();
