/* Segment page charts: requests per snapshot, size over time, residency over time, and a partitioned table's
   heat by partition age. */
import * as TS from "./common.js";

const fmt = TS.fmt;
const timeAxis = { ticks: { maxTicksLimit: 6, maxRotation: 0, autoSkipPadding: 12 } };

function requests() {
  const io = TS.data("data-io");
  if (!io || !io.labels.length) return;
  TS.make("chart-io", {
    type: "line",
    data: {
      labels: io.labels,
      datasets: [
        { label: "Read requests", data: io.reads, borderColor: "#2563eb", backgroundColor: "#2563eb22", fill: true, pointRadius: 0, borderWidth: 1.5 },
        { label: "Write requests", data: io.writes, borderColor: "#dc2626", pointRadius: 0, borderWidth: 1.5 },
      ],
    },
    options: {
      interaction: { mode: "index", intersect: false },
      scales: { x: timeAxis, y: { beginAtZero: true, title: { display: true, text: "requests per snapshot" }, ticks: { callback: function (v) { return fmt.sig(v); } } } },
      plugins: { legend: { position: "bottom" } },
    },
  });
}

function allocated() {
  const size = TS.data("data-size");
  if (!size || !size.labels.length) return;
  TS.make("chart-size", {
    type: "line",
    data: { labels: size.labels, datasets: [{ label: size.measured ? "Allocated (GB)" : "Current size (GB)", data: size.sizeGb, borderColor: "#0891b2", backgroundColor: "#0891b222", fill: true, pointRadius: 0, borderWidth: 2, stepped: true }] },
    options: {
      scales: { x: timeAxis, y: { beginAtZero: true, title: { display: true, text: "GB" }, ticks: { callback: function (v) { return fmt.gb(v); } } } },
      plugins: { legend: { position: "bottom" }, tooltip: { callbacks: { label: function (i) { return fmt.gb(i.raw); } } } },
    },
  });
}

function residency() {
  const res = TS.data("data-residency-series");
  if (res && res.labels.length) TS.residencyChart("chart-residency", res, false);
}

/* Heat by partition age: a partitioned table's partitions, oldest first, on a log scale (0 and unmeasured
   leave a gap: a log axis has no 0, and an unmeasured figure is unknown, not 0; the table beside says which). */
function partitions() {
  const parts = TS.data("data-partitions");
  if (!parts || !parts.labels.length) return;
  const colour = function (i) { return parts.current[i] ? "#dc2626" : (parts.ages[i] !== null && parts.ages[i] < 0 ? "#9ca3af" : "#2563eb"); };
  TS.make("chart-partitions", {
    type: "bar",
    data: {
      labels: parts.labels,
      datasets: [{ label: "IO intensity (IO/s per GB)", data: parts.intensity.map(function (v) { return v > 0 ? v : null; }), backgroundColor: parts.labels.map(function (_, i) { return colour(i); }) }],
    },
    options: {
      scales: {
        x: { ticks: { maxRotation: 60, autoSkip: true, callback: function (v, i) { const a = parts.ages[i]; return a === null ? parts.labels[i] : parts.labels[i] + " (" + a + ")"; } } },
        y: { type: "logarithmic", title: { display: true, text: "IO intensity (IO/s per GB)" }, ticks: { callback: function (v) { return fmt.sig(v); } } },
      },
      plugins: {
        legend: { display: false },
        tooltip: { callbacks: { label: function (i) {
          const v = parts.intensity[i.dataIndex];
          const age = parts.ages[i.dataIndex];
          return (v === null ? "not measured" : fmt.sig(v) + " IO/s per GB") + (age === null ? "" : ", age " + age) + (parts.tiers[i.dataIndex] ? ", recommended on " + parts.tiers[i.dataIndex] : "");
        } } },
      },
    },
  });
}

TS.drawEach({ "chart-io": requests, "chart-size": allocated, "chart-residency": residency, "chart-partitions": partitions });
