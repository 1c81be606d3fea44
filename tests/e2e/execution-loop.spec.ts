import { expect, test } from '@playwright/test'

// The homepage's drawing of the execution loop (app/_components/execution-loop.tsx): its step labels
// must stay clear of every arrow, arrowhead and circle, at a desktop and at a phone width.

/** Space every text keeps from every stroke and fill, in the drawing's own units. */
const CLEARANCE = 2

interface Box {
  x: number
  y: number
  width: number
  height: number
}

interface Collision {
  text: string
  shape: string
}

interface LoopGeometry {
  viewBox: Box
  labels: { text: string; box: Box }[]
  collisions: Collision[]
}

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 375, height: 740 },
] as const

for (const viewport of VIEWPORTS) {
  test.describe(`the execution loop at ${viewport.width}×${viewport.height} (${viewport.name})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } })

    test('no step label or step number touches an arrow, an arrowhead or a circle, and every label lies inside the drawing', async ({
      page,
    }, testInfo) => {
      await page.goto('/')
      const drawing = page.locator('svg.loop')
      await expect(drawing).toBeVisible()
      const screenshot = testInfo.outputPath(`execution-loop-${viewport.name}.png`)
      await drawing.screenshot({ path: screenshot })
      await testInfo.attach(`execution-loop-${viewport.name}.png`, { path: screenshot, contentType: 'image/png' })

      const geometry = await drawing.evaluate((svg: SVGSVGElement, clearance: number): LoopGeometry => {
        type Point = { x: number; y: number }
        const bboxOf = (element: SVGGraphicsElement): Box => {
          const { x, y, width, height } = element.getBBox()
          return { x, y, width, height }
        }
        /** Distance from a point to a box (0 inside it). */
        const distanceTo = (point: Point, box: Box) =>
          Math.hypot(Math.max(box.x - point.x, 0, point.x - (box.x + box.width)), Math.max(box.y - point.y, 0, point.y - (box.y + box.height)))
        const corners = (box: Box): Point[] => [
          { x: box.x, y: box.y },
          { x: box.x + box.width, y: box.y },
          { x: box.x, y: box.y + box.height },
          { x: box.x + box.width, y: box.y + box.height },
        ]
        const inPolygon = (point: Point, polygon: Point[]) => {
          let inside = false
          for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
            const a = polygon[i] as Point
            const b = polygon[j] as Point
            if (a.y > point.y !== b.y > point.y && point.x < ((b.x - a.x) * (point.y - a.y)) / (b.y - a.y) + a.x) inside = !inside
          }
          return inside
        }
        /** Points along a shape's outline, in its own coordinates, at most half a unit apart. */
        const outline = (shape: SVGGeometryElement): Point[] => {
          const length = shape.getTotalLength()
          const steps = Math.max(8, Math.ceil(length * 2))
          return Array.from({ length: steps + 1 }, (_, index) => {
            const { x, y } = shape.getPointAtLength((length * index) / steps)
            return { x, y }
          })
        }
        const paintWidth = (element: Element, property: 'stroke' | 'fill') => {
          const style = getComputedStyle(element)
          if (style[property] === 'none') return undefined
          return property === 'stroke' ? Number.parseFloat(style.strokeWidth) : 0
        }

        /** Whatever the drawing paints: a test `touches(box)` per shape. */
        const shapes: { name: string; kind: string; touches: (box: Box) => boolean }[] = []
        // Every stroked or filled shape in place (circles and arrows), with its painted width.
        for (const shape of svg.querySelectorAll<SVGGeometryElement>('circle, path, line, polyline, polygon, rect, ellipse')) {
          if (shape.closest('marker, defs')) continue
          const name = shape.outerHTML.slice(0, 120)
          const stroke = paintWidth(shape, 'stroke')
          const filled = paintWidth(shape, 'fill') !== undefined
          const points = outline(shape)
          shapes.push({
            name,
            kind: shape.tagName,
            touches: (box) =>
              (stroke !== undefined && points.some((point) => distanceTo(point, box) <= stroke / 2 + clearance)) ||
              (filled && (points.some((point) => distanceTo(point, box) <= clearance) || corners(box).some((corner) => inPolygon(corner, points)))),
          })
          // The arrowheads: markers drawn at a path's end, placed as SVG places them (markerUnits="strokeWidth").
          const style = getComputedStyle(shape)
          for (const position of ['markerStart', 'markerMid'] as const) {
            if (style[position] !== 'none') throw new Error(`${name}: ${position} is not measured by this test`)
          }
          if (style.markerEnd === 'none') continue
          const markerId = /#([^")]+)/.exec(style.markerEnd)?.[1]
          const marker = markerId ? svg.querySelector<SVGMarkerElement>(`marker#${markerId}`) : null
          if (!marker || stroke === undefined) throw new Error(`${name}: marker ${style.markerEnd} not found`)
          const view = marker.viewBox.baseVal
          const scale = Math.min(marker.markerWidth.baseVal.value / view.width, marker.markerHeight.baseVal.value / view.height) * stroke
          const length = shape.getTotalLength()
          const end = shape.getPointAtLength(length)
          const before = shape.getPointAtLength(length - 0.5)
          const angle = Math.atan2(end.y - before.y, end.x - before.x)
          const place = (point: Point): Point => {
            const x = (point.x - marker.refX.baseVal.value) * scale
            const y = (point.y - marker.refY.baseVal.value) * scale
            return { x: end.x + x * Math.cos(angle) - y * Math.sin(angle), y: end.y + x * Math.sin(angle) + y * Math.cos(angle) }
          }
          for (const head of marker.querySelectorAll<SVGGeometryElement>('path, polygon, circle, rect')) {
            const points = outline(head).map(place)
            shapes.push({
              name: `arrowhead of ${name}`,
              kind: 'arrowhead',
              touches: (box) =>
                points.some((point) => distanceTo(point, box) <= clearance) || corners(box).some((corner) => inPolygon(corner, points)),
            })
          }
        }
        if (shapes.length === 0) throw new Error('the drawing has no shapes')

        const view = svg.viewBox.baseVal
        const steps = [...svg.querySelectorAll<SVGTextElement>('text.loop-step')]
        const numbers = [...svg.querySelectorAll<SVGTextElement>('text.loop-label')]
        const collisions: Collision[] = []
        for (const text of steps) {
          const box = bboxOf(text)
          for (const shape of shapes) if (shape.touches(box)) collisions.push({ text: text.textContent ?? '', shape: shape.name })
          for (const other of steps) {
            if (other === text) continue
            const otherBox = bboxOf(other)
            const apart =
              box.x + box.width + clearance <= otherBox.x ||
              otherBox.x + otherBox.width + clearance <= box.x ||
              box.y + box.height + clearance <= otherBox.y ||
              otherBox.y + otherBox.height + clearance <= box.y
            if (!apart) collisions.push({ text: text.textContent ?? '', shape: `the label ${other.textContent}` })
          }
        }
        // A step's number sits on its node, over the ring; no arrow or arrowhead may cross it.
        for (const text of numbers) {
          const box = bboxOf(text)
          for (const shape of shapes) {
            if (shape.kind === 'circle') continue
            if (shape.touches(box)) collisions.push({ text: text.textContent ?? '', shape: shape.name })
          }
        }
        return {
          viewBox: { x: view.x, y: view.y, width: view.width, height: view.height },
          labels: steps.map((text) => ({ text: text.textContent ?? '', box: bboxOf(text) })),
          collisions,
        }
      }, CLEARANCE)

      expect(geometry.labels.map((label) => label.text)).toEqual(['Plan the week', 'Do the work', 'Check in', 'Get unstuck'])
      expect(geometry.collisions).toEqual([])
      for (const { text, box } of geometry.labels) {
        const { viewBox } = geometry
        expect(
          box.x >= viewBox.x &&
            box.y >= viewBox.y &&
            box.x + box.width <= viewBox.x + viewBox.width &&
            box.y + box.height <= viewBox.y + viewBox.height,
          `${text} at ${JSON.stringify(box)} lies inside the drawing ${JSON.stringify(viewBox)}`,
        ).toBe(true)
      }
    })
  })
}
