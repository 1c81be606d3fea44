/**
 * How the tests start Chromium with WebMCP: Debian's Chromium 156 offers `document.modelContext`
 * (registerTool, getTools, executeTool) and the DevTools WebMCP domain Lighthouse reads only with these
 * features on.
 */
export const WEBMCP_CHROME_FLAG = '--enable-features=WebMCPTesting,DevToolsWebMCPSupport'

/** The tools every page registers by script, and the one the sign-up form declares. */
export const SCRIPTED_TOOL_NAMES = ['get_public_capabilities', 'list_plans', 'list_public_resources', 'open_app', 'read_public_resource']
export const FORM_TOOL_NAME = 'start_signup'
/** The pages that show the sign-up form. */
export const SIGNUP_FORM_PATHS = ['/', '/pricing']

/** The contact page's "Talk to sales" form, a declarative tool the visitor submits (no toolautosubmit). */
export const SALES_FORM_TOOL_NAME = 'talk_to_sales'
export const SALES_FORM_PATHS = ['/contact']
