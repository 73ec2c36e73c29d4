/* Contrast of text and of the focus ring against what lies behind them (WCAG 1.4.3, 1.4.11),
 * gradients included: run by tests/browser/test_layout.py with [selector, "text" | "focus"]. */
(args) => {
  const [selector, mode] = args;
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (fg, bg) => [0, 1, 2].map((i) => fg[i] * fg[3] + bg[i] * (1 - fg[3])).concat([1]);
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => {
    const x = lum(a), y = lum(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  };
  // The colours behind a node: each stop of the nearest gradient (or the nearest opaque
  // colour), under the translucent backgrounds between it and the node.
  const behind = (node) => {
    const layers = [];
    for (let n = node; n; n = n.parentElement) {
      const style = getComputedStyle(n);
      const stops = (style.backgroundImage.match(/rgba?\([^)]+\)/g) || []).map(parse);
      const colour = parse(style.backgroundColor);
      let bases = null;
      if (stops.length) bases = stops.map((s) => over(s, colour && colour[3] ? colour : [255, 255, 255, 1]));
      else if (colour && colour[3] >= 1) bases = [colour];
      else if (colour && colour[3] > 0) layers.push(colour);
      if (bases) return bases.map((b) => layers.reduceRight((acc, l) => over(l, acc), b));
    }
    return [layers.reduceRight((acc, l) => over(l, acc), [255, 255, 255, 1])];
  };
  const shown = (n) => n.getClientRects().length && getComputedStyle(n).visibility !== "hidden";
  const opacity = (n) => {
    let o = 1;
    for (; n; n = n.parentElement) o *= Number(getComputedStyle(n).opacity);
    return o;
  };
  const failures = [];
  if (mode === "text") {
    for (const node of document.querySelectorAll(selector)) {
      const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
      if (!own || !shown(node) || node.closest("[disabled], [aria-hidden=true] svg")) continue;
      const style = getComputedStyle(node);
      const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
      const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
      const fg = parse(style.color);
      fg[3] *= opacity(node);
      const worst = Math.min(...behind(node).map((bg) => ratio(over(fg, bg), bg)));
      if (worst < needed) failures.push(`${node.className || node.tagName} "${node.textContent.trim().slice(0, 30)}": ${worst.toFixed(2)} < ${needed}`);
    }
  } else {
    const node = document.activeElement;
    const style = getComputedStyle(node);
    const width = parseFloat(style.outlineWidth);
    const label = `${node.tagName}.${node.className} "${(node.textContent || node.value || "").trim().slice(0, 20)}"`;
    if (style.outlineStyle === "none" || width < 2) {
      failures.push(`${label}: no focus outline`);
    } else {
      const ring = parse(style.outlineColor);
      const worst = Math.min(...behind(node.parentElement).map((bg) => ratio(over(ring, bg), bg)));
      if (worst < 3) failures.push(`${label}: focus ring ${worst.toFixed(2)} < 3`);
    }
  }
  return failures;
}
