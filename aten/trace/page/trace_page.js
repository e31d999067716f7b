// The trace page's script: renders the record in #trace-data (aten/trace/TracePage.h) as
//   - the call tree: one row per call, redispatch and step, nested as the text trace indents
//     them, collapsible, each row's text being its text trace line (Note [The page holds its
//     data as JSON]);
//   - the inspector: for a selected call or result, each tensor's geometry and memory picture;
//     for a selected TensorIterator step, its decisions with the dims coloured as in the
//     pictures of its operands;
//   - the autograd graph the calls made, drawn as torchviz draws it (forward arrows).
// No library, no network: plain DOM and SVG.
(function() {
'use strict';
const page = JSON.parse(document.getElementById('trace-data').textContent);
const NDIM_COLORS = 8;

// ---- small DOM helpers ------------------------------------------------------------------
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class')
      node.className = v;
    else if (k === 'text')
      node.textContent = v;
    else if (k.startsWith('on'))
      node.addEventListener(k.slice(2), v);
    else
      node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}
const list = (v) => '[' + v.join(', ') + ']';
const dimClass = (d) => 'dim d' + (d % NDIM_COLORS);
const dimName = (d) => el('span', {class: dimClass(d)}, 'd' + d);
function prod(v) { return v.reduce((a, b) => a * b, 1); }

// ---- geometry ---------------------------------------------------------------------------
// The storage element an index lands on: offset + sum(index[d] * stride[d]).
function elementOffset(t, index) {
  let off = t.offset;
  for (let d = 0; d < index.length; ++d) off += index[d] * t.strides[d];
  return off;
}
// Row-major indices of a tensor's first `limit` elements.
function firstIndices(sizes, limit) {
  const out = [];
  const n = prod(sizes);
  if (n === 0) return out;
  const idx = sizes.map(() => 0);
  for (let i = 0; i < Math.min(n, limit); ++i) {
    out.push(idx.slice());
    for (let d = sizes.length - 1; d >= 0; --d) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

// Names of the results (and nothing else) by tensor id and by storage, to label pictures.
const namesByImpl = new Map();
const namesByStorage = new Map();
for (const g of page.groups) {
  for (const r of g.results) {
    if (!r.tensor) continue;
    if (r.tensor.impl_id) namesByImpl.set(r.tensor.impl_id, r.name);
    const s = namesByStorage.get(r.tensor.storage) || new Set();
    s.add(r.name);
    namesByStorage.set(r.tensor.storage, s);
  }
}

// ---- the memory picture -----------------------------------------------------------------
let pictureCount = 0;
function tensorPicture(t, title, dimOrderNote) {
  const id = 'pic' + (++pictureCount);
  const box = el('section', {class: 'tensor', 'aria-label': title, 'data-picture': id});
  box.append(el('h3', {}, title));
  if (!t.dtype) {
    box.append(el('p', {class: 'note'}, 'undefined tensor'));
    return box;
  }
  const flags = [
    ['contiguous', t.contiguous], ['channels-last', t.channels_last],
    ['non-overlapping and dense', t.non_overlapping_and_dense]
  ];
  const shared = [...(namesByStorage.get(t.storage) || [])];
  const dl = el(
      'dl', {class: 'geometry'}, el('dt', {}, 'dtype'),
      el('dd', {}, t.dtype + (t.device !== 'cpu' ? ' on ' + t.device : '')), el('dt', {}, 'sizes'),
      el('dd', {class: 'sizes'}, '[',
         t.sizes.map(
             (s, d) =>
                 [d ? ', ' : '', el('span', {class: dimClass(d), title: 'dim ' + d}, String(s))]),
         ']'),
      el('dt', {}, 'strides'),
      el('dd', {class: 'strides'}, '[',
         t.strides.map(
             (s, d) =>
                 [d ? ', ' : '', el('span', {class: dimClass(d), title: 'dim ' + d}, String(s))]),
         ']'),
      el('dt', {}, 'offset'), el('dd', {class: 'offset'}, String(t.offset)),
      el('dt', {}, 'storage'),
      el('dd', {},
         t.storage ? '#' + t.storage + ', ' + t.storage_size + ' elements of ' + t.itemsize +
                 ' bytes' + (shared.length ? ', shared by ' + shared.join(', ') : '') :
                     'none'),
      el('dt', {}, 'flags'),
      el('dd', {},
         flags.map(
             ([name, on]) =>
                 el('span', {class: 'flag ' + (on ? 'yes' : 'no')}, (on ? '' : 'not ') + name))),
      t.requires_grad ?
          [
            el('dt', {}, 'autograd'),
            el('dd',
               {}, 'requires_grad' + (t.grad_fn_id ? ', grad_fn ' + (nodeNames.get(t.grad_fn_id) || '(made before the recording)') : ', a leaf'))
          ] :
          null);
  box.append(dl);
  if (dimOrderNote) box.append(el('p', {class: 'note'}, dimOrderNote));

  const numel = prod(t.sizes);
  const shown = firstIndices(t.sizes, page.cells);
  const formula =
      el('p', {class: 'formula', 'aria-live': 'polite'},
         'Select an element to see the storage cell it lives in.');
  const elements = [];        // [button, offset]
  const cells = [];           // storage cell spans by offset
  const ownerOf = new Map();  // offset -> element buttons

  // The elements as a grid: the last dim across, the one before down, the rest as captions.
  const grid = el('div', {class: 'grid-wrap', role: 'group', 'aria-label': 'elements of ' + title});
  const nd = t.sizes.length;
  const cols = nd >= 1 ? t.sizes[nd - 1] : 1;
  const rows = nd >= 2 ? t.sizes[nd - 2] : 1;
  let table = null, tbody = null, tr = null;
  shown.forEach((index, i) => {
    const col = nd >= 1 ? index[nd - 1] : 0;
    const row = nd >= 2 ? index[nd - 2] : 0;
    if (col === 0 && row === 0) {
      const lead = index.slice(0, Math.max(0, nd - 2));
      const caption =
          el('caption', {},
             nd > 2 ?
                 [
                   '[',
                   lead.map((v, d) => [d ? ', ' : '', el('span', {class: dimClass(d)}, String(v))]),
                   nd > 2 ? ', :, :]' : ']'
                 ] :
                 (nd === 2     ? '[:, :]' :
                      nd === 1 ? '[:]' :
                                 '0-dim'));
      const head =
          el('tr', {}, el('th', {}, ''),
             nd >= 1 ? [...Array(Math.min(cols, shown.length)).keys()].map(
                           (c) => el('th', {class: dimClass(nd - 1), scope: 'col'}, String(c))) :
                       null);
      tbody = el('tbody');
      table = el('table', {class: 'elements'}, caption, el('thead', {}, head), tbody);
      grid.append(table);
    }
    if (col === 0) {
      tr =
          el('tr', {},
             el('th', {class: nd >= 2 ? dimClass(nd - 2) : '', scope: 'row'},
                nd >= 2 ? String(row) : ''));
      tbody.append(tr);
    }
    const off = elementOffset(t, index);
    const value = off >= 0 && off < t.cells.length ? t.cells[off] : '·';
    const button =
        el('button', {
          class: 'el',
          type: 'button',
          'data-index': index.join(','),
          'data-offset': off,
          'aria-label': 'element [' + index.join(', ') + '] = ' + value + ', storage cell ' + off
        },
           value);
    elements.push([button, off, index]);
    if (!ownerOf.has(off)) ownerOf.set(off, []);
    ownerOf.get(off).push(button);
    tr.append(el('td', {}, button));
  });
  box.append(
      el('h3', {},
         'Elements' +
             (numel > shown.length ? ' (the first ' + shown.length + ' of ' + numel + ')' : '')),
      grid);

  // The storage as a row of cells; the tensor's own cells shaded.
  const usedOffsets = new Set();
  if (numel <= 65536)
    for (const index of firstIndices(t.sizes, numel)) usedOffsets.add(elementOffset(t, index));
  else
    for (const [, off] of elements) usedOffsets.add(off);
  const ncells = Math.min(t.storage_size, page.cells);
  const storage =
      el('div', {class: 'storage', role: 'list', 'aria-label': 'storage #' + t.storage + ' cells'});
  for (let off = 0; off < ncells; ++off) {
    const value = off < t.cells.length ? t.cells[off] : '';
    const cell =
        el('span', {
          class: 'cell' + (usedOffsets.has(off) ? ' used' : ''),
          role: 'listitem',
          'data-offset': off,
          title: 'cell ' + off + (usedOffsets.has(off) ? '' : ' (not an element of this tensor)')
        },
           el('span', {class: 'ix'}, String(off)), value);
    cells[off] = cell;
    storage.append(cell);
  }
  box.append(
      el('h3', {},
         'Storage #' + t.storage +
             (t.storage_size > ncells ?
                  ' (the first ' + ncells + ' of ' + t.storage_size + ' cells)' :
                  '')),
      storage, formula);

  function clear() {
    box.querySelectorAll('.hl, .hl-shared').forEach((n) => n.classList.remove('hl', 'hl-shared'));
  }
  function selectElement(button, off, index) {
    clear();
    (ownerOf.get(off) ||
     []).forEach((b) => b.classList.add('hl-shared'));  // one cell, many elements
    button.classList.add('hl');
    if (cells[off]) cells[off].classList.add('hl');
    const terms = [];
    index.forEach(
        (v, d) => terms.push(' + ', el('span', {class: dimClass(d)}, v + '·' + t.strides[d])));
    const sharers = (ownerOf.get(off) || []).length;
    formula.replaceChildren(
        el('span', {}, '[' + index.join(', ') + '] → '), String(t.offset), ...terms, ' = ',
        el('strong', {class: 'formula-offset'}, String(off)),
        cells[off] ? '' : ' (past the cells drawn)',
        sharers > 1 ? ' — ' + sharers + ' elements share this cell' : '');
  }
  for (const [button, off, index] of elements) {
    const pick = () => selectElement(button, off, index);
    button.addEventListener('click', pick);
    button.addEventListener('focus', pick);
    button.addEventListener('mouseenter', pick);
  }
  cells.forEach((cell, off) => cell.addEventListener('mouseenter', () => {
    clear();
    cell.classList.add('hl');
    const owners = ownerOf.get(off) || [];
    owners.forEach((b) => b.classList.add('hl'));
    formula.replaceChildren(
        'cell ' + off + ': ' +
        (owners.length ?
             owners.length + ' element' + (owners.length > 1 ? 's' : '') + ' shown live here' :
             'no element shown lives here'));
  }));
  box.walk = function(iterShape, byteStrides) {
    // Numbers the cells in the order the iterator visits them (the first `cells` steps).
    storage.querySelectorAll('.walk').forEach((n) => n.remove());
    const idx = iterShape.map(() => 0);
    const steps = Math.min(prod(iterShape), page.cells);
    const seen = new Set();
    for (let s = 0; s < steps; ++s) {
      let off = t.offset;
      for (let k = 0; k < idx.length; ++k) off += idx[k] * byteStrides[k] / t.itemsize;
      if (cells[off] && !seen.has(off)) {
        cells[off].append(el('span', {class: 'walk'}, '#' + s));
        seen.add(off);
      }
      for (let k = 0; k < idx.length; ++k) {
        if (++idx[k] < iterShape[k]) break;
        idx[k] = 0;
      }
    }
  };
  return box;
}

// ---- the autograd nodes the calls made --------------------------------------------------
const nodeNames = new Map();   // id -> name
const graphNodes = new Map();  // id -> {id, name, next: [...]} for nodes made while recording
function collectAutograd(node) {
  if (node.kind === 'step' && node.detail && node.detail.next) {
    graphNodes.set(node.detail.id, node.detail);
    nodeNames.set(node.detail.id, node.detail.name.replace('torch::autograd::', ''));
    for (const n of node.detail.next)
      if (n) nodeNames.set(n.id, n.name.replace('torch::autograd::', ''));
  }
  node.children.forEach(collectAutograd);
}
page.groups.forEach((g) => g.calls.roots.forEach(collectAutograd));

// ---- the inspector ----------------------------------------------------------------------
const inspector = el('aside', {id: 'inspector', 'aria-label': 'Inspector', tabindex: '-1'});
function showEmpty() {
  inspector.replaceChildren(
      el('h2', {}, 'Inspector'),
      el('p', {class: 'note'},
         'Select a call, a TensorIterator step or a result (click, or Enter on a focused row) to see its tensors: sizes, strides, offset, flags, the elements as a grid and the storage as cells. Select an element to light the cell it lives in.'));
}

function showCall(node) {
  inspector.replaceChildren(
      el('h2', {}, (node.kind === 'redispatch' ? 'redispatch ' : '') + node.op),
      el('dl', {class: 'geometry'}, el('dt', {}, 'key set'), el('dd', {}, node.keys),
         el('dt', {}, 'chosen key'), el('dd', {}, node.key), el('dt', {}, 'kernel'),
         el('dd', {}, node.kernel), el('dt', {}, 'why'), el('dd', {}, node.why),
         el('dt', {}, 'took'),
         el('dd', {}, node.dur_us.toFixed(1) + ' µs' + (node.raised ? ', raised' : ''))));
  node.inputs.forEach(
      (t, i) => inspector.append(tensorPicture(
          t,
          'input ' + i +
              (namesByImpl.has(t.impl_id) ? ' (' + namesByImpl.get(t.impl_id) + ')' : ''))));
  node.outputs.forEach(
      (t, i) => inspector.append(tensorPicture(
          t,
          'result ' + i +
              (namesByImpl.has(t.impl_id) ? ' (' + namesByImpl.get(t.impl_id) + ')' : ''))));
  if (!node.inputs.length && !node.outputs.length)
    inspector.append(el('p', {class: 'note'}, 'No tensors in or out.'));
}

function chips(values, dimOf) {
  return [
    '[',
    values.map(
        (v, k) => [k ? ', ' : '', el('span', {class: 'chip ' + dimClass(dimOf(k, v))}, String(v))]),
    ']'
  ];
}

function showIterator(node, siblings) {
  const ti = node.detail;
  const loops = siblings.filter(
      (s) => s.kind === 'step' && s !== node && !(s.detail && s.detail.broadcast_shape) &&
          !(s.detail && s.detail.next));
  const groupText = (k) => ti.groups ? ti.groups[k].map((d) => 'd' + d).join('·') : '?';
  inspector.replaceChildren(
      el('h2', {}, 'TensorIterator'),
      el('dl', {class: 'geometry ti'}, el('dt', {}, 'broadcast shape'),
         el('dd', {class: 'ti-broadcast'}, chips(ti.broadcast_shape, (k) => k)),
         el('dt', {}, 'fast setup'), el('dd', {class: 'ti-fast-setup'}, ti.fast_setup),
         el('dt', {}, 'perm_'),
         el('dd', {class: 'ti-perm'},
            ti.perm ? chips(ti.perm, (k, v) => v) :
                      'none (a fast setup keeps the tensor\'s order)'),
         el('dt', {}, 'output strides'),
         el('dd', {class: 'ti-output-strides'}, chips(ti.output_strides, (k) => k)),
         el('dt', {}, 'coalesced shape'),
         el('dd', {}, el('span', {class: 'ti-iteration-shape'}, list(ti.iteration_shape)),
            ti.groups ?
                [
                  ' = ',
                  ti.iteration_shape.map(
                      (s, k) =>
                          [k ? ', ' : '',
                           el('span', {class: 'chip'}, s + ' (',
                              ti.groups[k].map((d, j) => [j ? '·' : '', dimName(d)]), ')')])
                ] :
                null),
         el('dt', {}, 'loop'),
         el('dd', {class: 'ti-loop'},
            loops.length ? loops.map((s) => s.line).join('; ') :
                           'the operator\'s own loop (no step logged)')),
      el('p', {class: 'note'},
         'Iteration dims run fastest first: iteration dim k walks tensor dim perm_[k]; coalescing merges neighbours every operand walks as one. The colours are the tensor dims d0, d1, … in every picture below, which show the operands as the iterator found them, before its loop ran (an output not yet written holds whatever its memory held).'));
  const strides =
      el('table', {class: 'strides'}, el('caption', {}, 'byte strides per iteration dim'),
         el('tr', {}, el('th', {}, 'operand'),
            ti.iteration_shape.map(
                (s, k) => el('th', {scope: 'col'}, 'it' + k + ' (' + groupText(k) + ')'))),
         ti.byte_strides.map(
             (bs, i) =>
                 el('tr', {},
                    el('th', {scope: 'row'},
                       i < ti.num_outputs ? 'out ' + i : 'in ' + (i - ti.num_outputs)),
                    bs.map((b) => el('td', {}, String(b))))));
  inspector.append(el('div', {class: 'grid-wrap'}, strides));
  const pictures = node.inputs.map(
      (t, i) => tensorPicture(
          t,
          (i < ti.num_outputs ? 'output ' + i : 'input ' + (i - ti.num_outputs)) +
              (namesByImpl.has(t.impl_id) ? ' (' + namesByImpl.get(t.impl_id) + ')' : '')));
  const walk =
      el('button', {
        type: 'button',
        class: 'walk-button',
        onclick: () =>
            pictures.forEach((p, i) => p.walk(ti.iteration_shape, ti.byte_strides[i] || []))
      },
         'Number the storage cells in the order the loop visits them');
  inspector.append(walk, ...pictures);
}

function showResult(result) {
  inspector.replaceChildren(el('h2', {}, result.name));
  inspector.append(el('p', {class: 'mono'}, result.line));
  if (result.tensor) inspector.append(tensorPicture(result.tensor, result.name));
}

// ---- the call tree ----------------------------------------------------------------------
let selectedRow = null;
function select(row, show) {
  if (selectedRow) selectedRow.setAttribute('aria-selected', 'false');
  selectedRow = row;
  row.setAttribute('aria-selected', 'true');
  show();
}

function callText(node) {
  // The text trace's line, part by part: [redispatch ]op(args)  keys -> key: kernel [why]
  return el(
      'span', {class: 'line-text'},
      node.kind === 'redispatch' ? el('span', {class: 'redispatch-word'}, 'redispatch ') : null,
      el('span', {class: 'op'}, node.op), '(', el('span', {class: 'args'}, node.args), ')  ',
      el('span', {class: 'keys'}, node.keys), ' -> ', el('span', {class: 'key'}, node.key), ': ',
      el('span', {class: 'kernel'}, node.kernel), ' [', el('span', {class: 'why'}, node.why), ']');
}

function renderNode(node, depth, siblings) {
  const li = el('li', {role: 'none'});
  const hasChildren = node.children.length > 0;
  const isTI = node.kind === 'step' && node.detail && node.detail.broadcast_shape;
  const isAutograd = node.kind === 'step' && node.detail && node.detail.next;
  const row = el('div', {
    class: 'row ' + node.kind + (isTI ? ' step ti' : '') + (isAutograd ? ' autograd' : ''),
    role: 'treeitem',
    tabindex: '-1',
    'aria-level': depth + 1,
    'aria-selected': 'false',
    'data-depth': depth,
    'data-kind': node.kind
  });
  const toggle =
      el('button', {
        class: 'toggle',
        type: 'button',
        tabindex: '-1',
        'aria-label': 'collapse',
        hidden: !hasChildren
      },
         hasChildren ? '▾' : '');
  row.append(toggle);
  row.append(node.kind === 'step' ? el('span', {class: 'line-text'}, node.line) : callText(node));
  if (node.kind !== 'step')
    row.append(
        el('span', {class: 'dur', title: 'how long the call took, what it called included'},
           node.dur_us.toFixed(1) + ' µs'));
  if (node.raised) row.append(el('span', {class: 'raised'}, 'raised'));
  li.append(row);
  let sub = null;
  if (hasChildren) {
    row.setAttribute('aria-expanded', 'true');
    sub = el(
        'ul', {role: 'group'}, node.children.map((c) => renderNode(c, depth + 1, node.children)));
    li.append(sub);
  }
  const setOpen = (open) => {
    if (!sub) return;
    sub.hidden = !open;
    row.setAttribute('aria-expanded', String(open));
    toggle.textContent = open ? '▾' : '▸';
    toggle.setAttribute('aria-label', open ? 'collapse' : 'expand');
  };
  row.setOpen = setOpen;
  toggle.addEventListener('click', (e) => {
    e.stopPropagation();
    setOpen(sub.hidden);
  });
  const show = isTI ?
      () => showIterator(node, siblings) :
      node.kind === 'step' ?
      () => showCall(
          {...node, op: node.line, keys: '', key: '', kernel: '', why: 'a step inside its call'}) :
      () => showCall(node);
  row.addEventListener('click', () => select(row, show));
  row.activate = () => select(row, show);
  return li;
}

// Keyboard: the tree is one tab stop; arrows move and fold, Enter or Space selects.
function visibleRows(root) {
  return [...root.querySelectorAll('.row')].filter((r) => r.offsetParent !== null);
}
function treeKeys(root) {
  root.addEventListener('keydown', (e) => {
    const rows = visibleRows(root);
    const at = rows.indexOf(document.activeElement);
    if (at < 0) return;
    const row = rows[at];
    const move = (i) => {
      if (i >= 0 && i < rows.length) {
        row.tabIndex = -1;
        rows[i].tabIndex = 0;
        rows[i].focus();
      }
    };
    switch (e.key) {
      case 'ArrowDown':
        move(at + 1);
        break;
      case 'ArrowUp':
        move(at - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(rows.length - 1);
        break;
      case 'ArrowRight':
        if (row.setOpen) row.setOpen(true);
        break;
      case 'ArrowLeft':
        if (row.setOpen) row.setOpen(false);
        break;
      case 'Enter':
      case ' ':
        if (row.activate) row.activate();
        break;
      default:
        return;
    }
    e.preventDefault();
  });
}

// ---- the autograd graph -----------------------------------------------------------------
function drawGraph(container) {
  const boxes = new Map();  // id -> {id, label, kind}
  const edges = [];         // forward: from -> to, with a label
  const add = (id, label, kind) => {
    if (!boxes.has(id)) boxes.set(id, {id, label, kind});
  };
  for (const [id, n] of graphNodes) {
    add(id, nodeNames.get(id), 'fn');
    n.next.forEach((to) => {
      if (!to) return;
      add(to.id, nodeNames.get(to.id), 'fn');
      const label = to.input_nr ? String(to.input_nr) : '';
      const same = edges.find((e) => e.from === to.id && e.to === id && e.label === label);
      if (same)
        ++same.count;  // mul(x, x): two edges, drawn once and counted
      else
        edges.push({from: to.id, to: id, label, count: 1});
      if (to.leaf_impl_id) {
        const leaf = 'leaf:' + to.id;  // one leaf per AccumulateGrad
        add(leaf,
            (namesByImpl.get(to.leaf_impl_id) ? namesByImpl.get(to.leaf_impl_id) + '\n' : '') +
                to.leaf_sizes,
            'leaf');
        if (!edges.some((e) => e.from === leaf))
          edges.push({from: leaf, to: to.id, label: '', count: 1});
      }
    });
  }
  // The results: a script's named tensors, or a program's outermost calls' results.
  const outputs = [];
  page.groups.forEach((g, gi) => {
    g.results.forEach((r) => {
      if (r.tensor && r.tensor.grad_fn_id && boxes.has(r.tensor.grad_fn_id))
        outputs.push([gi + ':' + r.name, r.name, r.tensor]);
    });
    if (!g.text)
      g.calls.roots.forEach((root, i) => (root.outputs || []).forEach((t, k) => {
        if (t.grad_fn_id && boxes.has(t.grad_fn_id))
          outputs.push([gi + ':' + i + ':' + k, 'call ' + (i + 1), t]);
      }));
  });
  // A name given twice (y = ...; y = ...) is two boxes: one per assignment.
  for (const [key, name, t] of outputs) {
    const id = 'out:' + key;
    add(id, name + '\n[' + t.sizes.join(', ') + ']', 'out');
    edges.push({from: t.grad_fn_id, to: id, label: '', count: 1});
  }
  if (!boxes.size) {
    container.append(el(
        'p', {class: 'note'}, 'No autograd node was made by these calls (nothing required grad).'));
    return;
  }
  // Layers by the longest path from a source, drawn top to bottom.
  const layer = new Map([...boxes.keys()].map((k) => [k, 0]));
  for (let pass = 0; pass < boxes.size; ++pass) {
    let changed = false;
    for (const e of edges)
      if (layer.get(e.to) < layer.get(e.from) + 1) {
        layer.set(e.to, layer.get(e.from) + 1);
        changed = true;
      }
    if (!changed) break;
  }
  const rows = [];
  for (const [id, l] of layer) (rows[l] = rows[l] || []).push(id);
  const charW = 7.3, lineH = 16, padX = 10, gapX = 24, gapY = 46;
  const pos = new Map();
  let width = 0, y = 12;
  rows.forEach((ids) => {
    let x = 12, h = 0;
    for (const id of ids) {
      const lines = boxes.get(id).label.split('\n');
      const w = Math.max(...lines.map((s) => s.length)) * charW + 2 * padX;
      const bh = lines.length * lineH + 10;
      pos.set(id, {x, y, w, h: bh, lines});
      x += w + gapX;
      h = Math.max(h, bh);
    }
    width = Math.max(width, x);
    y += h + gapY;
  });
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 ' + width + ' ' + y);
  svg.setAttribute('width', width);
  svg.setAttribute('role', 'img');
  svg.setAttribute(
      'aria-label', 'autograd graph: ' + boxes.size + ' boxes, ' + edges.length + ' arrows');
  svg.innerHTML =
      '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#444"/></marker></defs>';
  for (const e of edges) {
    const a = pos.get(e.from), b = pos.get(e.to);
    const x1 = a.x + a.w / 2, y1 = a.y + a.h, x2 = b.x + b.w / 2, y2 = b.y;
    const path = document.createElementNS(NS, 'path');
    path.setAttribute('class', 'edge');
    path.setAttribute(
        'd', `M${x1},${y1} C${x1},${(y1 + y2) / 2} ${x2},${(y1 + y2) / 2} ${x2},${y2}`);
    svg.append(path);
    const text = [e.label, e.count > 1 ? '×' + e.count : ''].filter(Boolean).join(' ');
    if (text) {
      const t = document.createElementNS(NS, 'text');
      t.setAttribute('class', 'edge-label');
      t.setAttribute('x', (x1 + x2) / 2 + 4);
      t.setAttribute('y', (y1 + y2) / 2);
      t.textContent = text;
      svg.append(t);
    }
  }
  for (const [id, p] of pos) {
    const g = document.createElementNS(NS, 'g');
    g.setAttribute('class', 'gnode ' + boxes.get(id).kind);
    g.setAttribute('data-label', boxes.get(id).label.replace('\n', ' '));
    const r = document.createElementNS(NS, 'rect');
    r.setAttribute('x', p.x);
    r.setAttribute('y', p.y);
    r.setAttribute('width', p.w);
    r.setAttribute('height', p.h);
    g.append(r);
    p.lines.forEach((line, i) => {
      const t = document.createElementNS(NS, 'text');
      t.setAttribute('x', p.x + padX);
      t.setAttribute('y', p.y + 17 + i * lineH);
      t.textContent = line;
      g.append(t);
    });
    svg.append(g);
  }
  container.append(svg);
  // The same graph as text, for screen readers and for copying.
  const label = (id) => boxes.get(id).label.replace('\n', ' ');
  container.append(
      el('details', {}, el('summary', {}, 'The graph as a list of arrows'),
         el('ul', {class: 'edges'},
            edges.map(
                (e) =>
                    el('li', {},
                       label(e.from) + ' → ' + label(e.to) +
                           (e.label ? ' (output ' + e.label + ')' : '') +
                           (e.count > 1 ? ' (' + e.count + ' edges)' : ''))))));
}

// ---- the page ---------------------------------------------------------------------------
function build() {
  const calls = el('section', {id: 'calls', 'aria-label': 'Calls'}, el('h2', {}, 'Calls'));
  let nCalls = 0;
  const count = (n) => {
    if (n.kind !== 'step') ++nCalls;
    n.children.forEach(count);
  };
  page.groups.forEach((g) => g.calls.roots.forEach(count));
  page.groups.forEach((g, gi) => {
    const section = el(
        'section',
        {class: 'group', 'aria-label': g.text ? 'statement ' + (gi + 1) : 'the program\'s calls'});
    if (g.text) section.append(el('h2', {class: 'stmt'}, '>>> ' + g.text));
    const tree = el(
        'ul', {class: 'tree', role: 'tree', 'aria-label': g.text ? 'calls of ' + g.text : 'calls'},
        g.calls.roots.map((r) => renderNode(r, 0, g.calls.roots)));
    section.append(tree);
    if (g.calls.dropped)
      section.append(
          el('p', {class: 'note'},
             g.calls.dropped + ' calls past the first ' + page.max_calls + ' were not recorded.'));
    if (g.error) section.append(el('p', {class: 'error', role: 'alert'}, g.error));
    if (g.results.length) {
      const results = el('ul', {class: 'results', role: 'tree', 'aria-label': 'results'});
      g.results.forEach((r) => {
        const row =
            el('div', {
              class: 'row result',
              role: 'treeitem',
              tabindex: '-1',
              'aria-selected': 'false',
              'data-name': r.name
            },
               el('span', {class: 'toggle', 'aria-hidden': 'true'}, '='),
               el('span', {class: 'line-text'}, r.line));
        row.addEventListener('click', () => select(row, () => showResult(r)));
        row.activate = () => select(row, () => showResult(r));
        results.append(el('li', {role: 'none'}, row));
      });
      section.append(results);
    }
    calls.append(section);
  });
  // One tab stop per tree: its first row.
  calls.querySelectorAll('[role=tree]').forEach((tree) => {
    const first = tree.querySelector('.row');
    if (first) first.tabIndex = 0;
    treeKeys(tree);
  });

  const graph = el(
      'section', {id: 'graph', 'aria-label': 'Autograd graph'}, el('h2', {}, 'Autograd graph'),
      el('p', {class: 'note'},
         'Arrows run forward, as torchviz draws them: a leaf (blue) feeds its AccumulateGrad, each backward node feeds the nodes whose edges lead to it, the last feeds the result (green).'));
  drawGraph(graph);

  showEmpty();
  document.body.prepend(
      el('a', {class: 'skip', href: '#calls'}, 'Skip to the calls'),
      el('header', {}, el('h1', {}, page.title),
         page.command ? el('p', {}, el('code', {}, page.command)) : null,
         el('p', {},
            nCalls + ' calls and redispatches in ' + page.groups.length + ' ' +
                (page.groups.length === 1 ? 'group' : 'statements') +
                '. Each row is a line of the text trace; memory pictures show at most ' +
                page.cells + ' cells.'),
         el('nav', {'aria-label': 'sections'}, el('a', {href: '#calls'}, 'Calls'),
            el('a', {href: '#inspector'}, 'Inspector'),
            el('a', {href: '#graph'}, 'Autograd graph'))),
      el('main', {class: 'layout'}, calls, inspector), graph,
      el('footer', {},
         'Written by miniaten\'s trace recorder; this page fetches nothing and runs from disk.'));
  document.documentElement.setAttribute('data-ready', 'true');
}
build();
})();
