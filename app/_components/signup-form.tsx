import { SIGNUP_FORM_CLASS } from '@/lib/routes/page-script-hooks.ts'
import type { SignupFormTool } from '@/lib/pages/page-tools.ts'

/**
 * Sign-up with a chosen plan in plain HTML: a GET to the app's sign-up, which reads `?plan=<id>` as the
 * pricing page's links write it. Works without script; browsers with WebMCP offer it to agents as the
 * tool `form.toolName`, which they may submit (a navigation; nothing is sent to this site).
 */
export function SignupForm({ form }: { form: SignupFormTool }) {
  return (
    <form
      className={`card ${SIGNUP_FORM_CLASS}`}
      method="get"
      action={form.action}
      toolname={form.toolName}
      tooldescription={form.toolDescription}
      toolautosubmit=""
      aria-labelledby="signup-form-heading"
    >
      <h2 id="signup-form-heading">Start with a plan</h2>
      <p className="signup-fields">
        <label htmlFor="signup-plan">Plan</label>
        <select id="signup-plan" name="plan" toolparamdescription={form.planDescription}>
          {form.options.map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
            </option>
          ))}
        </select>
        <button className="button" type="submit">
          {form.submitLabel}
        </button>
      </p>
    </form>
  )
}
