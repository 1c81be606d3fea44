// The declarative WebMCP attributes (webmachinelearning/webmcp, declarative API explainer), unknown to
// React's types: a form is a tool of the page's model context, each of its fields a parameter.
import 'react'

declare module 'react' {
  interface FormHTMLAttributes<T> {
    toolname?: string
    tooldescription?: string
    /** Present (any value): the agent may submit the filled form itself. */
    toolautosubmit?: ''
  }
  interface InputHTMLAttributes<T> {
    toolparamdescription?: string
  }
  interface SelectHTMLAttributes<T> {
    toolparamdescription?: string
  }
  interface TextareaHTMLAttributes<T> {
    toolparamdescription?: string
  }
}
