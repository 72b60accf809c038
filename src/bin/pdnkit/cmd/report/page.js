(function () {
'use strict';
// The report's page: everything below is drawn from the data in
// #pdnkit-data (see report/mod.rs for its layout), and only when it is
// needed: a page of the games table, the first findings of each group, a
// finding's board when it scrolls into view, the viewer of the game opened.
window.__pdnkitErrors = [];
window.addEventListener('error', function (e) { window.__pdnkitErrors.push(String(e.message)); });
var D = JSON.parse(document.getElementById('pdnkit-data').textContent);
var NS = 'http://www.w3.org/2000/svg', SQ = 40, M = 18, AL = D.alphabet, IDX = {};
for (var a = 0; a < AL.length; a++) { IDX[AL.charAt(a)] = a; }
var SEV = ['error', 'warning', 'note'];
var G = D.games, F = D.findings, FIRST = D.first_in_group, PAGE = D.page_rows;
// Columns of a game row.
var C = {file: 0, index: 1, line: 2, white: 3, black: 4, event: 5, round: 6, date: 7, declared: 8,
  computed: 9, valid: 10, plies: 11, variant: 12, first: 13, codes: 14, termination: 15, board: 16, opening: 17};

function h(tag, attrs, text) {
  var e = document.createElement(tag);
  if (attrs) { for (var k in attrs) { if (attrs[k] !== null && attrs[k] !== undefined) { e.setAttribute(k, attrs[k]); } } }
  if (text !== undefined && text !== null) { e.textContent = text; }
  return e;
}
function s(tag, attrs, text) {
  var e = document.createElementNS(NS, tag);
  for (var k in attrs) { e.setAttribute(k, attrs[k]); }
  if (text !== undefined) { e.textContent = text; }
  return e;
}
function squares(text) { var out = []; for (var i = 0; i < text.length; i++) { out.push(IDX[text.charAt(i)]); } return out; }
function fileName(i) { return D.files[i]; }
function baseName(path) { var k = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')); return k >= 0 ? path.slice(k + 1) : path; }

// ---- boards -------------------------------------------------------------
var boards = {};
// The start and the moves of game `gi`, decoded once.
function board(gi) {
  if (boards[gi]) { return boards[gi]; }
  var b = G[gi][C.board];
  if (!b) { return null; }
  var start = {};
  for (var k = 0; k + 1 < b.p.length; k += 2) {
    var c = b.p.charAt(k);
    start[IDX[b.p.charAt(k + 1)]] = c === 'w' ? 'W' : c === 'W' ? 'WK' : c === 'b' ? 'B' : 'BK';
  }
  var moves = b.m ? b.m.split(' ').map(function (t) {
    var crown = t.charAt(t.length - 1) === '~';
    if (crown) { t = t.slice(0, -1); }
    return {from: IDX[t.charAt(0)], to: IDX[t.charAt(1)], taken: squares(t.slice(2)), crown: crown};
  }) : [];
  var written = b.w || moves.map(function (m) { return m.from + (m.taken.length ? 'x' : '-') + m.to; });
  boards[gi] = {n: b.n, mirrored: b.o === 1, algebraic: b.a === 1, side: b.s, second: b.q, start: start,
    moves: moves, written: written, bad: b.bad || [], stood: b.st || []};
  return boards[gi];
}
function position(g, ply) {
  var pieces = {};
  for (var sq in g.start) { pieces[sq] = g.start[sq]; }
  for (var i = 0; i < ply && i < g.moves.length; i++) {
    var m = g.moves[i], p = pieces[m.from];
    delete pieces[m.from];
    m.taken.forEach(function (c) { delete pieces[c]; });
    if (m.crown && p && p.length === 1) { p = p + 'K'; }
    pieces[m.to] = p;
  }
  return pieces;
}
function toMove(g, ply) { var first = g.side; return ply % 2 === 0 ? first : (first === 'W' ? 'B' : 'W'); }
// The number of ply `ply` as the record counts it (as replay::move_number:
// `second` is 1 when the first ply is numbered as the second move, `1...`).
function moveLabel(g, ply) {
  var k = ply - 1 + g.second, n = Math.floor(k / 2) + 1;
  return n + (k % 2 === 1 ? '...' : '.');
}
function coords(g, sq) {
  var half = g.n / 2, r = Math.floor((sq - 1) / half);
  var f = 2 * ((sq - 1) % half) + ((r % 2 === 0) !== g.mirrored ? 1 : 0);
  return [r, f];
}
function centre(g, sq) { var rc = coords(g, sq); return [M + rc[1] * SQ + SQ / 2, M + rc[0] * SQ + SQ / 2]; }
// A board: pieces, square numbers on the empty dark squares (numeric boards)
// or files and ranks on the edges (algebraic ones), the side to move, and
// the arrows: {path, taken, alt}.
function drawBoard(g, pieces, side, arrows) {
  var n = g.n, size = n * SQ + 2 * M, height = size + 20;
  var svg = s('svg', {viewBox: '0 0 ' + size + ' ' + height, width: size, height: height, 'class': 'board-svg', role: 'img',
    'data-side': side});
  svg.appendChild(s('title', {}, (side === 'W' ? 'White' : 'Black') + ' to move'));
  svg.appendChild(s('rect', {x: 0, y: 0, width: size, height: height, fill: '#fff'}));
  svg.appendChild(s('rect', {x: M, y: M, width: n * SQ, height: n * SQ, fill: '#eeeed2'}));
  var dark = g.mirrored ? 0 : 1, d = '';
  for (var r = 0; r < n; r++) { for (var f = 0; f < n; f++) { if ((r + f) % 2 === dark) { d += 'M' + (M + f * SQ) + ' ' + (M + r * SQ) + 'h' + SQ + 'v' + SQ + 'h-' + SQ + 'z'; } } }
  svg.appendChild(s('path', {d: d, fill: '#6b675c'}));
  var labels = s('g', {'class': 'coords', 'font-family': 'sans-serif', 'text-anchor': 'middle'});
  if (g.algebraic) {
    for (var i = 0; i < n; i++) {
      labels.appendChild(s('text', {x: M + i * SQ + SQ / 2, y: M + n * SQ + 13, 'font-size': 12, fill: '#333'}, String.fromCharCode(97 + i)));
      labels.appendChild(s('text', {x: M / 2, y: M + i * SQ + SQ / 2 + 4, 'font-size': 12, fill: '#333'}, String(n - i)));
    }
  } else {
    for (var q = 1; q <= n * n / 2; q++) {
      if (pieces[q]) { continue; }
      var c = centre(g, q);
      labels.appendChild(s('text', {x: c[0], y: c[1] + 5, 'font-size': 14, fill: '#fff', 'class': 'number'}, String(q)));
    }
  }
  svg.appendChild(labels);
  Object.keys(pieces).forEach(function (sq) {
    var p = pieces[sq], c = centre(g, +sq), white = p.charAt(0) === 'W';
    var grp = s('g', {'class': 'piece', 'data-square': sq, 'data-piece': p});
    grp.appendChild(s('circle', {cx: c[0], cy: c[1], r: 15, fill: white ? '#fafafa' : '#1e1e1e', stroke: '#111', 'stroke-width': 2}));
    if (p.length > 1) {
      var line = white ? '#111' : '#e8e8e8';
      grp.appendChild(s('circle', {cx: c[0], cy: c[1], r: 9, fill: 'none', stroke: line, 'stroke-width': 2.5}));
      grp.appendChild(s('circle', {cx: c[0], cy: c[1], r: 3, fill: line}));
    }
    svg.appendChild(grp);
  });
  (arrows || []).forEach(function (m) { drawArrow(svg, g, m); });
  var y = M + n * SQ + (g.algebraic ? 30 : 16);
  svg.appendChild(s('circle', {cx: M + 7, cy: y - 4, r: 6, fill: side === 'W' ? '#fafafa' : '#1e1e1e', stroke: '#111', 'stroke-width': 1.5}));
  svg.appendChild(s('text', {x: M + 18, y: y, 'font-size': 13, 'font-family': 'sans-serif', fill: '#222', 'class': 'side'},
    (side === 'W' ? 'White' : 'Black') + ' to move'));
  svg.setAttribute('viewBox', '0 0 ' + size + ' ' + (y + 8));
  svg.setAttribute('height', y + 8);
  return svg;
}
function drawArrow(svg, g, m) {
  var color = m.alt ? '#1565c0' : '#d22';
  var grp = s('g', {'class': 'move', 'data-move': m.alt ? 'alternative' : 'written'});
  m.taken.forEach(function (t) {
    var c = centre(g, t), k = SQ / 2 - 9;
    grp.appendChild(s('path', {'class': 'taken', 'data-square': t, d: 'M' + (c[0] - k) + ' ' + (c[1] - k) + 'L' + (c[0] + k) + ' ' + (c[1] + k) +
      'M' + (c[0] + k) + ' ' + (c[1] - k) + 'L' + (c[0] - k) + ' ' + (c[1] + k), stroke: color, 'stroke-width': 3}));
  });
  if (m.path.length >= 2) {
    var pts = m.path.map(function (q) { return centre(g, q).join(','); }).join(' ');
    var attrs = {points: pts, fill: 'none', stroke: color, 'stroke-width': 4, 'stroke-linejoin': 'round', 'stroke-opacity': 0.85};
    if (m.alt) { attrs['stroke-dasharray'] = '6 4'; }
    grp.appendChild(s('polyline', attrs));
    var last = centre(g, m.path[m.path.length - 1]), prev = centre(g, m.path[m.path.length - 2]);
    var ang = Math.atan2(last[1] - prev[1], last[0] - prev[0]), L = 12, W = 0.5;
    var p1 = [last[0] - L * Math.cos(ang - W), last[1] - L * Math.sin(ang - W)], p2 = [last[0] - L * Math.cos(ang + W), last[1] - L * Math.sin(ang + W)];
    grp.appendChild(s('path', {d: 'M' + last.join(' ') + 'L' + p1.join(' ') + 'L' + p2.join(' ') + 'z', fill: color}));
  }
  svg.appendChild(grp);
}
function arrow(text, alt) {
  if (!text) { return null; }
  var parts = text.split('|');
  return {path: squares(parts[0]), taken: squares(parts[1] || ''), alt: alt};
}

// ---- the viewer ---------------------------------------------------------
// A panel at the side of the page: opening a game keeps the page where it is.
var viewer = document.getElementById('viewer'), vGame = -1, vPly = 0, byGame = null;
function findingsOf(gi) {
  if (!byGame) { byGame = {}; F.forEach(function (f, fi) { (byGame[f[0]] = byGame[f[0]] || []).push(fi); }); }
  return byGame[gi] || [];
}
function closeViewer() {
  viewer.hidden = true;
  vGame = -1;
  if (/^#game-/.test(location.hash)) { history.replaceState(null, '', location.pathname + location.search); }
}
viewer.querySelector('.close').addEventListener('click', closeViewer);
function openGame(gi, ply, scroll) {
  var row = G[gi], g = board(gi);
  if (!row) { return; }
  vGame = gi;
  viewer.hidden = false;
  viewer.dataset.game = gi;
  var title = viewer.querySelector('h3');
  title.textContent = fileName(row[C.file]) + ' game ' + row[C.index] + ' (line ' + row[C.line] + '): ' +
    (row[C.white] || '?') + ' \u2013 ' + (row[C.black] || '?');
  viewer.querySelector('.result').textContent = 'declared ' + (row[C.declared] || 'none') + ', computed ' + row[C.computed] +
    ' (' + row[C.termination] + ')' + (row[C.variant] ? ' \u2014 ' + row[C.variant] : '') +
    (row[C.opening] ? ' \u2014 opening ' + row[C.opening] : '');
  var list = viewer.querySelector('.moves');
  list.textContent = '';
  viewer.querySelector('.board').textContent = '';
  viewer.querySelector('.body').hidden = !g;
  viewer.querySelector('.no-board').hidden = !!g;
  // The game's findings, each marked on its move.
  var fl = viewer.querySelector('.game-findings'), atPly = {};
  fl.textContent = '';
  findingsOf(gi).forEach(function (fi) {
    var f = F[fi], sev = SEV[f[1]], code = D.codes[f[2]];
    var li = h('li', {'data-finding': fi, 'data-ply': f[3] || null});
    li.appendChild(h('span', {'class': 'sev ' + sev}, sev + '[' + code + ']'));
    li.appendChild(document.createTextNode((f[3] ? ' ply ' + f[3] + ' (' + f[4] + ' ' + f[5] + '): ' : ' ') + f[6]));
    if (f[3]) {
      li.title = 'show the position before this move';
      var mine = atPly[f[3]] = atPly[f[3]] || [];
      mine.push({sev: f[1], text: sev + '[' + code + ']: ' + f[6]});
    }
    fl.appendChild(li);
  });
  fl.hidden = !fl.children.length;
  viewer.focus({preventScroll: true});
  if (!g) { return; }
  g.written.forEach(function (w, k) {
    var ply = k + 1, li = h('li', {'data-ply': ply}, moveLabel(g, ply) + '\u00a0' + w);
    if (atPly[ply]) {
      var worst = Math.min.apply(null, atPly[ply].map(function (x) { return x.sev; }));
      li.classList.add('f-' + SEV[worst]);
      li.dataset.findings = atPly[ply].length;
      li.title = atPly[ply].map(function (x) { return x.text; }).join('\n');
    }
    if (g.bad.indexOf(ply) >= 0) { li.classList.add('bad'); }
    if (g.stood.indexOf(ply) >= 0) { li.classList.add('stood'); li.title = 'an irregularity that stood: the game went on from the position it made'; }
    if (ply > g.moves.length) { li.classList.add('unplayed'); li.title = 'not replayed: the game could not be read past an error'; }
    list.appendChild(li);
  });
  show(ply === undefined ? 0 : ply);
  viewer.scrollTop = 0;
}
viewer.querySelector('.game-findings').addEventListener('click', function (e) {
  var li = e.target.closest('li');
  if (li && li.dataset.ply) { show(+li.dataset.ply - 1); }
});
function show(p) {
  var g = board(vGame);
  if (!g) { return; }
  vPly = Math.max(0, Math.min(g.moves.length, p));
  var holder = viewer.querySelector('.board');
  holder.textContent = '';
  holder.appendChild(drawBoard(g, position(g, vPly), toMove(g, vPly), []));
  viewer.querySelector('.ply').textContent = 'ply ' + vPly + ' / ' + g.moves.length;
  viewer.dataset.ply = vPly;
  var list = viewer.querySelector('.moves'), cur = null;
  Array.prototype.forEach.call(list.children, function (li) {
    var on = +li.dataset.ply === vPly;
    li.classList.toggle('current', on);
    if (on) { cur = li; }
  });
  // The active move scrolled into view inside its list (never the page).
  if (cur) {
    if (cur.offsetTop < list.scrollTop) { list.scrollTop = cur.offsetTop; }
    else if (cur.offsetTop + cur.offsetHeight > list.scrollTop + list.clientHeight) { list.scrollTop = cur.offsetTop + cur.offsetHeight - list.clientHeight; }
  }
}
viewer.querySelector('.first').addEventListener('click', function () { show(0); });
viewer.querySelector('.prev').addEventListener('click', function () { show(vPly - 1); });
viewer.querySelector('.next').addEventListener('click', function () { show(vPly + 1); });
viewer.querySelector('.last').addEventListener('click', function () { var g = board(vGame); if (g) { show(g.moves.length); } });
viewer.querySelector('.moves').addEventListener('click', function (e) {
  var li = e.target.closest('li');
  if (li && !li.classList.contains('unplayed')) { show(+li.dataset.ply); }
});
viewer.addEventListener('keydown', function (e) {
  var g = board(vGame);
  if (!g || e.key === 'Escape') { return; }
  if (e.key === 'ArrowRight') { show(vPly + 1); e.preventDefault(); }
  if (e.key === 'ArrowLeft') { show(vPly - 1); e.preventDefault(); }
  if (e.key === 'Home') { show(0); e.preventDefault(); }
  if (e.key === 'End') { show(g.moves.length); e.preventDefault(); }
});
document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && !viewer.hidden) { closeViewer(); } });
function route() {
  var m = /^#game-(\d+)(?:-(\d+))?$/.exec(location.hash);
  if (m && G[+m[1]]) { openGame(+m[1], m[2] === undefined ? 0 : +m[2], true); }
}
window.addEventListener('hashchange', route);

// ---- the games table ------------------------------------------------------
var table = document.getElementById('games'), tbody = table.tBodies[0];
var order = G.map(function (_, i) { return i; }), shown = order, page = 0, hay = [];
var onlyErrors = document.getElementById('only-errors'), codeFilter = document.getElementById('code-filter'),
  textFilter = document.getElementById('text-filter');
function haystack(gi) {
  if (hay[gi] === undefined) {
    var r = G[gi];
    hay[gi] = [fileName(r[C.file]), r[C.index], r[C.white], r[C.black], r[C.event], r[C.round], r[C.date], r[C.declared],
      r[C.computed], r[C.first], r[C.variant], r[C.opening]].join('\u0001').toLowerCase();
  }
  return hay[gi];
}
var lastFilter = null;
// Re-draws the rows only when the filter or the order changed: the search
// box's `change` on blur (as the pointer goes down on a row) must leave the
// row under the pointer in place, or the click falls on nothing (issue 55).
function filter(reordered) {
  var only = onlyErrors.checked, code = codeFilter.value === '' ? -1 : +codeFilter.value, text = textFilter.value.toLowerCase();
  var key = only + '\u0001' + code + '\u0001' + text;
  if (key === lastFilter && reordered !== true) { return; }
  lastFilter = key;
  shown = order.filter(function (gi) {
    var r = G[gi];
    return (!only || r[C.valid] === 0) && (code < 0 || r[C.codes].indexOf(code) >= 0) && (!text || haystack(gi).indexOf(text) >= 0);
  });
  page = 0;
  render();
}
function cell(tr, text, cls, title) {
  var td = h('td', {'class': cls || null, title: title || (text && String(text).length > 14 ? String(text) : null)}, text);
  tr.appendChild(td);
  return td;
}
function render() {
  var pages = Math.max(1, Math.ceil(shown.length / PAGE));
  page = Math.max(0, Math.min(pages - 1, page));
  var rows = document.createDocumentFragment(), from = page * PAGE, to = Math.min(shown.length, from + PAGE);
  for (var k = from; k < to; k++) {
    var gi = shown[k], r = G[gi], v = r[C.valid];
    var tr = h('tr', {'class': v === 1 ? 'valid' : v === 0 ? 'invalid' : 'unchecked', 'data-game': gi,
      'data-valid': v === 1 ? 'true' : v === 0 ? 'false' : 'none'});
    var path = fileName(r[C.file]);
    cell(tr, baseName(path), 'file', path);
    cell(tr, r[C.index], 'n');
    cell(tr, r[C.white]); cell(tr, r[C.black]);
    cell(tr, r[C.event], 'event'); cell(tr, r[C.round], 'round'); cell(tr, r[C.date], 'date');
    cell(tr, r[C.declared]); cell(tr, v === -1 ? '' : r[C.computed]);
    cell(tr, v === 1 ? 'yes' : v === 0 ? 'no' : 'not checked');
    cell(tr, r[C.opening], 'opening', r[C.opening]);
    cell(tr, r[C.first], 'first', r[C.first]);
    rows.appendChild(tr);
  }
  tbody.textContent = '';
  tbody.appendChild(rows);
  document.getElementById('shown').textContent = shown.length;
  document.getElementById('page-text').textContent = shown.length ? 'rows ' + (from + 1) + '\u2013' + to + ' of ' + shown.length + ', page ' + (page + 1) + ' of ' + pages : 'no game';
  document.getElementById('page-prev').disabled = page === 0;
  document.getElementById('page-next').disabled = page >= pages - 1;
}
tbody.addEventListener('click', function (e) {
  var tr = e.target.closest('tr');
  if (tr) { location.hash = 'game-' + tr.dataset.game; }
});
[onlyErrors, codeFilter, textFilter].forEach(function (e) { e.addEventListener('input', filter); e.addEventListener('change', filter); });
document.getElementById('page-prev').addEventListener('click', function () { page--; render(); });
document.getElementById('page-next').addEventListener('click', function () { page++; render(); });
var sortDir = {};
Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
  th.addEventListener('click', function () {
    var col = C[th.dataset.col], num = th.dataset.type === 'num', dir = sortDir[col] = -(sortDir[col] || -1);
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (o) { o.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
    var key = col === C.file ? function (gi) { return fileName(G[gi][C.file]); } : function (gi) { return G[gi][col]; };
    order = order.slice().sort(function (x, y) {
      var a = key(x), b = key(y);
      if (num) { a = +a; b = +b; } else { a = a === null ? '' : String(a); b = b === null ? '' : String(b); }
      return (a < b ? -1 : a > b ? 1 : x - y) * dir;
    });
    filter(true);
  });
});

// ---- findings, grouped ------------------------------------------------------
var fSection = document.getElementById('finding-groups');
var pending = [];
var observer = 'IntersectionObserver' in window ? new IntersectionObserver(function (entries) {
  entries.forEach(function (en) { if (en.isIntersecting) { drawFinding(en.target); observer.unobserve(en.target); } });
}, {rootMargin: '300px'}) : null;
function drawFinding(fig) {
  if (fig.dataset.drawn) { return; }
  var f = F[+fig.dataset.finding], gi = f[0], g = board(gi), ply = f[3];
  if (!g) { return; }
  fig.dataset.drawn = '1';
  var arrows = [arrow(f[12], false), arrow(f[13], true)].filter(function (x) { return x; });
  fig.appendChild(drawBoard(g, position(g, ply - 1), toMove(g, ply - 1), arrows));
}
function findingHtml(fi) {
  var f = F[fi], gi = f[0], row = G[gi], sev = SEV[f[1]], code = D.codes[f[2]];
  var art = h('article', {'class': 'finding', 'data-code': code, 'data-severity': sev, 'data-finding': fi});
  var text = h('div', {'class': 'text'});
  var head = h('h4');
  head.appendChild(h('span', {'class': 'sev ' + sev}, sev + '[' + code + ']'));
  head.appendChild(document.createTextNode(' ' + fileName(row[C.file]) + ' game ' + row[C.index] +
    (f[3] ? ', ply ' + f[3] + ': ' + f[4] + ' ' + f[5] : '')));
  text.appendChild(head);
  text.appendChild(h('p', null, f[6]));
  var pre = h('pre', {'class': 'source'});
  pre.appendChild(h('span', {'class': 'ln'}, String(f[7])));
  pre.appendChild(document.createTextNode(' ' + (f[11] & 1 ? '\u2026' : '') + f[8]));
  pre.appendChild(h('mark', null, f[9]));
  pre.appendChild(document.createTextNode(f[10] + (f[11] & 2 ? '\u2026' : '')));
  text.appendChild(pre);
  var link = h('a', {href: '#game-' + gi + (f[3] ? '-' + (f[3] - 1) : '')}, 'open the game at this move');
  text.appendChild(link);
  art.appendChild(text);
  if (f[3] && board(gi)) {
    var fig = h('figure', {'class': 'finding-diagram', 'data-finding': fi, title: 'position before ply ' + f[3]});
    art.appendChild(fig);
    pending.push(fig);
    if (observer) { observer.observe(fig); } else { drawFinding(fig); }
  }
  return art;
}
// Groups: one per file, code and severity; errors first.
var groups = [], byKey = {};
F.forEach(function (f, fi) {
  var key = G[f[0]][C.file] + ' ' + f[2] + ' ' + f[1];
  if (!byKey[key]) { byKey[key] = {file: G[f[0]][C.file], code: f[2], sev: f[1], items: []}; groups.push(byKey[key]); }
  byKey[key].items.push(fi);
});
groups.sort(function (a, b) { return a.sev - b.sev || a.file - b.file || a.code - b.code; });
function expand(gr, div, more) {
  var frag = document.createDocumentFragment();
  gr.items.slice(FIRST).forEach(function (fi) { frag.appendChild(findingHtml(fi)); });
  div.insertBefore(frag, more);
  more.remove();
  div.dataset.expanded = '1';
}
groups.forEach(function (gr) {
  var sev = SEV[gr.sev], code = D.codes[gr.code], n = gr.items.length;
  var div = h('div', {'class': 'group', 'data-code': code, 'data-severity': sev, 'data-count': n});
  var head = h('h3');
  head.appendChild(h('span', {'class': 'sev ' + sev}, n + ' ' + sev + (n === 1 ? '' : 's') + ' [' + code + ']'));
  head.appendChild(document.createTextNode(' in ' + fileName(gr.file)));
  div.appendChild(head);
  gr.items.slice(0, FIRST).forEach(function (fi) { div.appendChild(findingHtml(fi)); });
  if (n > FIRST) {
    var more = h('button', {'class': 'more', type: 'button'}, 'show the other ' + (n - FIRST) + ' ' + code + ' ' + sev + (n - FIRST === 1 ? '' : 's') + ' in ' + baseName(fileName(gr.file)));
    more.addEventListener('click', function () { expand(gr, div, more); });
    div.appendChild(more);
    gr.expand = function () { if (more.isConnected) { expand(gr, div, more); } };
  }
  fSection.appendChild(div);
});
function drawAll() { pending.forEach(drawFinding); }
// Printing draws every board of the findings shown, expanded groups
// included (the browser may print without a beforeprint event: the print
// media query says it too).
window.addEventListener('beforeprint', drawAll);
if (window.matchMedia) {
  var printing = window.matchMedia('print');
  var onPrint = function (m) { if (m.matches) { drawAll(); } };
  if (printing.addEventListener) { printing.addEventListener('change', onPrint); } else if (printing.addListener) { printing.addListener(onPrint); }
}

window.pdnkit = {
  openGame: openGame,
  expandAll: function () { groups.forEach(function (gr) { if (gr.expand) { gr.expand(); } }); },
  drawAll: drawAll,
  data: D,
  shown: function () { return shown.length; }
};
filter();
route();
document.body.dataset.ready = 'yes';
})();
