// tinylingo Pi extension. Written by `tinylingo install pi`; `tinylingo uninstall` removes it
// (this first line is how it knows the file is its own, so keep it).
//
// Before the model sees a prompt, the extension gives the prompt to `tinylingo hook pi` and
// adds what it prints (the explanations of the recorded terms the prompt mentions) as one
// message after it, which Pi sends to the model as user text and does not display. No hit, no
// message. Any failure leaves the prompt exactly as it was: a memory aid must never cost the
// user their prompt (and Pi itself only logs an extension's error).
//
// Plain JavaScript in a .ts file: Pi loads it with jiti, without a build step, and it imports
// nothing of Pi's, so it needs no package next to it.
import { spawnSync } from "node:child_process"

// tinylingo's scripts link to its binary: upgrades of the binary need no new install.
const TINYLINGO = "__TINYLINGO_BINARY__"
// The hook answers in milliseconds; this only bounds a stuck one (the smart matcher's own
// timeout is 3 s by default).
const TIMEOUT_MS = 10000
// Whether the thread journal is on: `tinylingo thread on` and `thread off` rewrite this line.
const JOURNAL = "__TINYLINGO_JOURNAL__" === "on"

function sessionID(ctx) {
  try {
    return (ctx && ctx.sessionManager && ctx.sessionManager.getSessionId()) || ""
  } catch {
    return ""
  }
}

// The block for `prompt`, or "" for no hit and for any failure (a missing binary included).
// `cwd` is the session's folder: the hook looks for the project glossary from there.
function lookUp(prompt, session, cwd) {
  const run = spawnSync(TINYLINGO, ["hook", "pi"], {
    input: JSON.stringify({ prompt, sessionID: session, cwd }),
    encoding: "utf8",
    timeout: TIMEOUT_MS,
    stdio: ["pipe", "pipe", "ignore"],
    windowsHide: true,
  })
  if (run.error || run.status !== 0 || typeof run.stdout !== "string") return ""
  return run.stdout.trim() === "" ? "" : run.stdout
}

// A message's text: a string, or its text parts (not thinking, not tool calls).
function textOf(content) {
  if (typeof content === "string") return content
  if (!Array.isArray(content)) return ""
  return content
    .filter((p) => p && p.type === "text" && typeof p.text === "string")
    .map((p) => p.text)
    .join("\n")
}

// `agent_end` carries this prompt's messages: the user's, ours (role "custom"), and the
// model's; a turn with tool calls has several assistant messages, the last with text holds the
// answer. `tinylingo hook pi after` writes the entry; whatever fails, Pi is not disturbed.
function journal(messages, session, cwd) {
  let prompt = ""
  let answer
  for (const m of messages) {
    if (!m) continue
    if (m.role === "user" && prompt === "") prompt = textOf(m.content)
    if (m.role === "assistant" && textOf(m.content).trim() !== "") answer = m
  }
  if (prompt === "" || !answer) return
  spawnSync(TINYLINGO, ["hook", "pi", "after"], {
    input: JSON.stringify({
      session_id: session,
      prompt,
      response: textOf(answer.content),
      model: typeof answer.model === "string" ? answer.model : "",
      cwd,
    }),
    timeout: TIMEOUT_MS,
    stdio: ["pipe", "ignore", "ignore"],
    windowsHide: true,
  })
}

export default function tinylingo(pi) {
  pi.on("before_agent_start", async (event, ctx) => {
    try {
      const prompt = event && typeof event.prompt === "string" ? event.prompt : ""
      if (prompt.trim() === "") return undefined
      const block = lookUp(prompt, sessionID(ctx), (ctx && ctx.cwd) || process.cwd())
      if (block === "") return undefined
      return { message: { customType: "tinylingo", content: block, display: false } }
    } catch {
      // Leave the prompt untouched.
      return undefined
    }
  })
  pi.on("agent_end", async (event, ctx) => {
    if (!JOURNAL) return
    try {
      const messages = event && Array.isArray(event.messages) ? event.messages : []
      journal(messages, sessionID(ctx), (ctx && ctx.cwd) || process.cwd())
    } catch {
      // The journal is a record; it never disturbs the session.
    }
  })
}
