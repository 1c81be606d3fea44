/**
 * The execution loop (content/home.md `loop`, 3 to 6 steps) drawn as a cycle: each step a numbered node
 * on a ring, arrows going round along the ring, each step's name outside the ring beside its node.
 * Every arrow lies on the ring, so a name placed clear of the ring is clear of every arrow.
 */

const RADIUS = 100
const NODE_RADIUS = 26
/** How far an arrowhead reaches beyond the ring's line: half its width (7 × stroke 3 × 5/10) and the stroke. */
const ARROW_REACH = 12
/** Space between a name and any shape. */
const GAP = 8
const STEP_FONT_SIZE = 15
const NUMBER_FONT_SIZE = 17
/**
 * Width of a name, estimated (the page is static: nothing measures it in the browser). 0.64 em a character
 * is above the widest fallback font's bold average (DejaVu Sans Bold, about 0.61 em for these words).
 */
const estimatedWidth = (text: string) => text.length * STEP_FONT_SIZE * 0.64

interface Label {
  x: number
  y: number
  anchor: 'start' | 'middle' | 'end'
  /** The label's box, as estimated. */
  left: number
  right: number
  top: number
  bottom: number
}

/**
 * Where a step's name goes: beside a node at the ring's sides, else above a node of the upper half and
 * below one of the lower half, moved away from the centre until it clears the ring and its arrowheads.
 */
function placeLabel(text: string, node: { x: number; y: number }, angle: number): Label {
  const width = estimatedWidth(text)
  // Half a line: a bold line's box is about 1.2 em tall.
  const half = STEP_FONT_SIZE * 0.6
  const [dx, dy] = [Math.cos(angle), Math.sin(angle)]
  if (Math.abs(dy) < 0.35) {
    // At the ring's side: beside the node, outside the ring.
    const x = node.x + Math.sign(dx) * (NODE_RADIUS + GAP)
    const [left, right] = dx > 0 ? [x, x + width] : [x - width, x]
    return { x, y: node.y, anchor: dx > 0 ? 'start' : 'end', left, right, top: node.y - half, bottom: node.y + half }
  }
  // Near the top or bottom the name is centred on its node; further out it starts at the node's inner edge.
  const anchor = Math.abs(dx) < 0.35 ? 'middle' : dx > 0 ? 'start' : 'end'
  const x = anchor === 'middle' ? node.x : node.x - Math.sign(dx) * NODE_RADIUS
  const [left, right] = anchor === 'middle' ? [x - width / 2, x + width / 2] : anchor === 'start' ? [x, x + width] : [x - width, x]
  // The ring's farthest reach over the label's columns: the closest column to the centre decides.
  const nearest = left <= 0 && right >= 0 ? 0 : Math.min(Math.abs(left), Math.abs(right))
  const reach = RADIUS + ARROW_REACH
  const ringEdge = nearest < reach ? Math.sqrt(reach * reach - nearest * nearest) : 0
  const distance = Math.max(Math.abs(node.y) + NODE_RADIUS + GAP, ringEdge + GAP) + half
  const y = Math.sign(dy) * distance
  return { x, y, anchor, left, right, top: y - half, bottom: y + half }
}

export function ExecutionLoop({ steps }: { steps: readonly string[] }) {
  // Coordinates around the ring's centre, (0, 0). The first node sits half a step clockwise from the top,
  // so that with four steps the nodes take the diagonals and every name finds room above or below its node.
  const angleOf = (index: number) => ((index + 0.5) / steps.length) * 2 * Math.PI - Math.PI / 2
  const at = (index: number, distance = RADIUS) => ({ x: distance * Math.cos(angleOf(index)), y: distance * Math.sin(angleOf(index)) })
  const nodes = steps.map((step, index) => {
    const centre = at(index)
    return { step, centre, label: placeLabel(step, centre, angleOf(index)) }
  })
  // The drawing's extent: the ring and its nodes, every name, a small margin; centred on the ring.
  const margin = 4
  const ringExtent = RADIUS + Math.max(NODE_RADIUS, ARROW_REACH)
  const halfWidth = Math.ceil(Math.max(ringExtent, ...nodes.flatMap(({ label }) => [-label.left, label.right])) + margin)
  const halfHeight = Math.ceil(Math.max(ringExtent, ...nodes.flatMap(({ label }) => [-label.top, label.bottom])) + margin)
  const round = (value: number) => Number(value.toFixed(1))
  return (
    <svg className="loop" viewBox={`${-halfWidth} ${-halfHeight} ${2 * halfWidth} ${2 * halfHeight}`} role="img" aria-labelledby="loop-title">
      <title id="loop-title">{`The loop: ${steps.join(', then ')}, and again.`}</title>
      <defs>
        <marker id="loop-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0 0L10 5L0 10z" className="loop-arrowhead" />
        </marker>
      </defs>
      <circle cx="0" cy="0" r={RADIUS} className="loop-track" />
      {nodes.map(({ step, centre, label }, index) => {
        // An arc from just past one node to just before the next, along the track.
        const start = at(index + 0.22)
        const end = at(index + 0.78)
        return (
          <g key={step}>
            <path
              d={`M${round(start.x)} ${round(start.y)}A${RADIUS} ${RADIUS} 0 0 1 ${round(end.x)} ${round(end.y)}`}
              className="loop-arc"
              markerEnd="url(#loop-arrow)"
            />
            <circle cx={round(centre.x)} cy={round(centre.y)} r={NODE_RADIUS} className="loop-node" />
            <text
              x={round(centre.x)}
              y={round(centre.y)}
              className="loop-label"
              fontSize={NUMBER_FONT_SIZE}
              textAnchor="middle"
              dominantBaseline="central"
            >
              {index + 1}
            </text>
            <text
              x={round(label.x)}
              y={round(label.y)}
              className="loop-step"
              fontSize={STEP_FONT_SIZE}
              textAnchor={label.anchor}
              dominantBaseline="central"
            >
              {step}
            </text>
          </g>
        )
      })}
    </svg>
  )
}
