"""What the view's tests and benchmark measure in the browser, as JavaScript run in the page.

OVERLAP: the share of drawn nodes whose box (vis-network's `getBoundingBox`: the node's
shape and its label, in canvas coordinates) overlaps the box of another drawn node. Boxes are
worked out when vis-network draws a frame, so it first waits for a frame showing every change
(`kgView.drawn()`).
"""

OVERLAP = """async () => {
  await kgView.drawn();
  const ids = network.body.data.nodes.getIds();
  const boxes = ids.map(id => network.getBoundingBox(id));
  let overlapping = 0;
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i];
    for (let j = 0; j < boxes.length; j++) {
      const b = boxes[j];
      if (i !== j && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
        overlapping++;
        break;
      }
    }
  }
  return {drawn: ids.length, overlapping: overlapping, share: ids.length ? overlapping / ids.length : 0};
}"""
