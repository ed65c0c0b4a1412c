/*
 * The style and the script of `pprof flame`'s page, inlined into it: the page fetches nothing (its
 * Content-Security-Policy forbids it), so a graph mailed along with an incident still opens offline.
 * The script reads the graph from the page's JSON block and puts every name in with textContent, never
 * as markup, so a function named `<img onerror=...>` is only text. Plain ES2017, no library.
 */

export const FLAME_STYLE = `
:root { color-scheme: light; font: 13px system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
body { margin: 0; background: #fff; color: #1f2328; }
header { padding: 10px 12px 6px; border-bottom: 1px solid #d0d7de; }
h1 { font-size: 15px; margin: 0 0 4px; word-break: break-all; }
.facts { color: #57606a; margin: 0 0 8px; }
.tools { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.tools input { font: inherit; padding: 3px 6px; width: 22em; }
.tools button { font: inherit; padding: 3px 10px; }
#matched { color: #6f42c1; font-weight: 600; }
#details { padding: 4px 12px; min-height: 1.4em; color: #1f2328; background: #f6f8fa; border-bottom: 1px solid #d0d7de; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#chart { position: relative; margin: 4px 12px 24px; }
.frame { position: absolute; box-sizing: border-box; height: 17px; padding: 0 3px; border: 1px solid #fff; border-radius: 2px;
  font: 11px/15px ui-monospace, "DejaVu Sans Mono", Menlo, monospace; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; cursor: pointer; color: #000; }
.frame:hover { border-color: #1f2328; }
.frame.ancestor { opacity: 0.55; }
.frame.match { background: #c678f0 !important; }
.frame.zoomed { border-color: #1f2328; }
`

export const FLAME_SCRIPT = `(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('flame-data').textContent);
  var names = data.names, nameOf = data.name, depthOf = data.depth, valueOf = data.value, selfOf = data.self;
  var count = nameOf.length, total = valueOf[0] || 0, ROW = 18;
  var chart = document.getElementById('chart'), details = document.getElementById('details');
  var search = document.getElementById('search'), matchedLabel = document.getElementById('matched');
  var resetButton = document.getElementById('reset');

  // Pre-order to geometry: each frame starts where its previous sibling ended; end[i] is past its last descendant.
  var start = new Float64Array(count), parent = new Int32Array(count), end = new Int32Array(count);
  var cursor = [], open = [];
  for (var i = 0; i < count; i++) {
    var d = depthOf[i];
    while (open.length > 0 && depthOf[open[open.length - 1]] >= d) end[open.pop()] = i;
    if (d === 0) { parent[i] = -1; start[i] = 0; }
    else { var p = open[open.length - 1]; parent[i] = p; start[i] = cursor[d - 1]; cursor[d - 1] += valueOf[i]; }
    cursor[d] = start[i];
    open.push(i);
  }
  while (open.length > 0) end[open.pop()] = count;

  function formatValue(v) {
    var unit = data.unit, steps, i = 0;
    if (unit === 'bytes') steps = [[1, 'B'], [1024, 'kB'], [1048576, 'MB'], [1073741824, 'GB'], [1099511627776, 'TB']];
    else if (unit === 'nanoseconds') steps = [[1, 'ns'], [1e3, 'us'], [1e6, 'ms'], [1e9, 's']];
    else return Math.round(v).toLocaleString('en-US') + (unit === 'count' ? '' : ' ' + unit);
    while (i + 1 < steps.length && Math.abs(v) >= steps[i + 1][0]) i++;
    var scaled = v / steps[i][0];
    return (i === 0 ? String(Math.round(scaled)) : scaled.toFixed(2).replace(/\\.?0+$/, '')) + steps[i][1];
  }
  function percent(v, of) { return of > 0 ? (100 * v / of).toFixed(2) + '%' : '0%'; }

  // Go package of a name ("github.com/x/y.(*T).M" -> "github.com/x/y"): frames of one package share a colour.
  function colourOf(name) {
    var slash = name.lastIndexOf('/'), dot = name.indexOf('.', slash + 1);
    var pkg = dot > 0 ? name.slice(0, dot) : name, h = 0;
    for (var k = 0; k < pkg.length; k++) h = (h * 31 + pkg.charCodeAt(k)) >>> 0;
    return 'hsl(' + (h % 50 + 5) + ',' + (h % 25 + 70) + '%,' + ((h >>> 8) % 15 + 58) + '%)';
  }
  var colours = names.map(colourOf);

  var zoomed = 0, matchName = null;

  function render() {
    var width = chart.clientWidth, from = start[zoomed], span = valueOf[zoomed] || 1, scale = width / span;
    var fragment = document.createDocumentFragment(), rows = 0;
    function draw(i, left, w, extra) {
      var el = document.createElement('div');
      el.className = 'frame' + extra + (matchName && matchName[nameOf[i]] ? ' match' : '');
      el.style.left = left + 'px';
      el.style.width = w + 'px';
      el.style.top = depthOf[i] * ROW + 'px';
      el.style.background = i === 0 ? '#d0d7de' : colours[nameOf[i]];
      el.dataset.index = String(i);
      el.textContent = names[nameOf[i]];
      fragment.appendChild(el);
      if (depthOf[i] + 1 > rows) rows = depthOf[i] + 1;
    }
    // The zoomed frame's ancestors span the whole width, faded; a click on one zooms back out to it.
    for (var a = parent[zoomed]; a >= 0; a = parent[a]) draw(a, 0, width, ' ancestor');
    for (var i = zoomed; i < end[zoomed]; ) {
      var w = valueOf[i] * scale;
      if (w < 0.5) { i = end[i]; continue; }
      draw(i, (start[i] - from) * scale, w, i === zoomed && zoomed !== 0 ? ' zoomed' : '');
      i++;
    }
    chart.textContent = '';
    chart.style.height = rows * ROW + 'px';
    chart.appendChild(fragment);
  }

  function show(i) {
    var text = names[nameOf[i]] + '  ' + formatValue(valueOf[i]) + ' (' + percent(valueOf[i], total) + ' of all';
    if (zoomed !== 0) text += ', ' + percent(valueOf[i], valueOf[zoomed]) + ' of the zoomed frame';
    text += '), self ' + formatValue(selfOf[i]);
    details.textContent = text;
  }

  function applySearch() {
    var query = search.value;
    matchName = null;
    matchedLabel.textContent = '';
    if (query !== '') {
      var re;
      try { re = new RegExp(query, 'i'); } catch (e) { re = new RegExp(query.replace(/[.*+?^\${}()|[\\]\\\\]/g, '\\\\$&'), 'i'); }
      matchName = names.map(function (n, k) { return k !== 0 && re.test(n); });
      // Matched share: a matching frame counts once, with the frames under it (nested matches are not added twice).
      var matched = 0;
      for (var i = 1; i < count; ) {
        if (matchName[nameOf[i]]) { matched += valueOf[i]; i = end[i]; } else i++;
      }
      matchedLabel.textContent = 'Matched: ' + percent(matched, total) + ' (' + formatValue(matched) + ')';
    }
    render();
  }

  function zoom(i) { zoomed = i; render(); }

  chart.addEventListener('click', function (event) {
    var el = event.target.closest('.frame');
    if (el) zoom(Number(el.dataset.index));
  });
  chart.addEventListener('mouseover', function (event) {
    var el = event.target.closest('.frame');
    if (el) show(Number(el.dataset.index));
  });
  resetButton.addEventListener('click', function () { zoom(0); });
  search.addEventListener('input', applySearch);
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape') { search.value = ''; applySearch(); zoom(0); }
    else if ((event.key === '/' || (event.key === 'f' && (event.ctrlKey || event.metaKey))) && document.activeElement !== search) { event.preventDefault(); search.focus(); }
  });
  window.addEventListener('resize', render);
  if (total > 0) show(0);
  else details.textContent = 'No samples to draw: the profile holds none of this type' + (data.filtered ? ', or --focus/--ignore left none' : '') + '.';
  render();
  document.body.dataset.ready = 'true';
})();
`
