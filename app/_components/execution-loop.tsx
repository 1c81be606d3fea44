/** The execution loop (content/home.md `loop`) drawn as a cycle: each step a node, arrows going round. */
export function ExecutionLoop({ steps }: { steps: readonly string[] }) {
  const centre = 160
  const radius = 112
  const at = (index: number, distance = radius) => {
    const angle = (index / steps.length) * 2 * Math.PI - Math.PI / 2
    return { x: centre + distance * Math.cos(angle), y: centre + distance * Math.sin(angle) }
  }
  return (
    <svg className="loop" viewBox="0 0 320 320" role="img" aria-labelledby="loop-title">
      <title id="loop-title">{`The loop: ${steps.join(', then ')}, and again.`}</title>
      <defs>
        <marker id="loop-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0 0L10 5L0 10z" className="loop-arrowhead" />
        </marker>
      </defs>
      <circle cx={centre} cy={centre} r={radius} className="loop-track" />
      {steps.map((step, index) => {
        const from = at(index)
        // Each step's name under its node, or above it for the nodes of the lower half.
        const label = { x: from.x, y: from.y + (from.y > centre + 1 ? -44 : 44) }
        // An arc from just past one node to just before the next, along the track.
        const start = at(index + 0.22)
        const end = at(index + 0.78)
        return (
          <g key={step}>
            <path
              d={`M${start.x.toFixed(1)} ${start.y.toFixed(1)}A${radius} ${radius} 0 0 1 ${end.x.toFixed(1)} ${end.y.toFixed(1)}`}
              className="loop-arc"
              markerEnd="url(#loop-arrow)"
            />
            <circle cx={from.x} cy={from.y} r="30" className="loop-node" />
            <text x={from.x} y={from.y} className="loop-label" textAnchor="middle" dominantBaseline="middle">
              {index + 1}
            </text>
            <text x={label.x} y={label.y} className="loop-step" textAnchor="middle" dominantBaseline="middle">
              {step}
            </text>
          </g>
        )
      })}
    </svg>
  )
}
