// tinylingo __TINYLINGO_DISPLAY__ plugin. Written by `tinylingo install __TINYLINGO_NAME__`; `tinylingo uninstall`
// removes it (this first line is how it knows the file is its own, so keep it).
//
// Before a user message reaches the model, the plugin gives the message's text to
// `tinylingo hook __TINYLINGO_NAME__` and adds what it prints (the explanations of the recorded terms the
// message mentions) as one synthetic text part. No hit, no part. Any failure leaves the message
// exactly as it was: a memory aid must never cost the user their message.
//
// node:child_process works the same under Bun (OpenCode's runtime) and Node. The same plugin
// serves OpenCode and its forks (Kilo), which load plugins the same way.
import { spawnSync } from "node:child_process"

// tinylingo's scripts link to its binary: upgrades of the binary need no new install.
const TINYLINGO = "__TINYLINGO_BINARY__"
// The assistant, as `tinylingo hook` names it.
const ASSISTANT = "__TINYLINGO_NAME__"
// The hook answers in milliseconds; this only bounds a stuck one (the smart matcher's own
// timeout is 3 s by default).
const TIMEOUT_MS = 10000
// Whether the thread journal is on: `tinylingo thread on` and `thread off` rewrite this line.
const JOURNAL = "__TINYLINGO_JOURNAL__" === "on"

// What the user typed: their text parts, not parts other plugins or OpenCode added.
function userText(parts) {
  return parts
    .filter((p) => p && p.type === "text" && !p.synthetic && !p.ignored && typeof p.text === "string")
    .map((p) => p.text)
    .join("\n")
}

// The block for `prompt`, or "" for no hit and for any failure. `cwd` is the project's
// folder: the hook looks for the project glossary (.tinylingo/glossary.json) from there.
function lookUp(prompt, sessionID, cwd) {
  const run = spawnSync(TINYLINGO, ["hook", ASSISTANT], {
    input: JSON.stringify({ prompt, sessionID, cwd }),
    encoding: "utf8",
    timeout: TIMEOUT_MS,
    stdio: ["pipe", "pipe", "ignore"],
    windowsHide: true,
  })
  if (run.error || run.status !== 0 || typeof run.stdout !== "string") return ""
  return run.stdout.trim() === "" ? "" : run.stdout
}

// Part ids sort in creation order; an id just after the message's last part keeps the block
// after the user's text.
function partID(parts) {
  const last = parts.length > 0 ? parts[parts.length - 1].id : undefined
  if (typeof last === "string" && last.startsWith("prt")) return last + "tinylingo"
  return "prt_tinylingo" + Date.now().toString(36)
}

// The last answer written to the journal, per session: session.idle may come more than once.
const journaled = new Map()

// OpenCode has no after-response hook: when a session goes idle, the last assistant message is
// its answer (a turn with tool calls has several; the last holds the final text) and the user
// message before it the prompt. `tinylingo hook <name> after` writes the entry; whatever
// fails, the session is not disturbed.
async function journal(client, directory, sessionID) {
  const res = await client.session.messages({ path: { id: sessionID } })
  const messages = res && Array.isArray(res.data) ? res.data : res
  if (!Array.isArray(messages)) return
  let answer
  let prompt
  for (let i = messages.length - 1; i >= 0; i--) {
    const info = (messages[i] && messages[i].info) || {}
    if (!answer && info.role === "assistant") answer = messages[i]
    else if (answer && info.role === "user") {
      prompt = messages[i]
      break
    }
  }
  if (!answer || !prompt || journaled.get(sessionID) === answer.info.id) return
  journaled.set(sessionID, answer.info.id)
  spawnSync(TINYLINGO, ["hook", ASSISTANT, "after"], {
    input: JSON.stringify({
      session_id: sessionID,
      prompt: userText(prompt.parts || []),
      response: userText(answer.parts || []),
      model: answer.info.modelID || "",
      cwd: directory || "",
    }),
    timeout: TIMEOUT_MS,
    stdio: ["pipe", "ignore", "ignore"],
    windowsHide: true,
  })
}

export const TinylingoPlugin = async ({ client, directory } = {}) => ({
  event: async ({ event }) => {
    if (!JOURNAL || !event || event.type !== "session.idle" || !client) return
    try {
      const sessionID = event.properties && event.properties.sessionID
      if (sessionID) await journal(client, directory, sessionID)
    } catch {
      // The journal is a record; it never disturbs the session.
    }
  },
  "chat.message": async (input, output) => {
    try {
      const parts = output && output.parts
      if (!Array.isArray(parts)) return
      const prompt = userText(parts)
      if (prompt === "") return
      const message = output.message || {}
      const sessionID = (input && input.sessionID) || message.sessionID || ""
      const block = lookUp(prompt, sessionID, directory || "")
      if (block === "") return
      parts.push({
        id: partID(parts),
        sessionID,
        messageID: message.id,
        type: "text",
        text: block,
        synthetic: true,
      })
    } catch {
      // Leave the message untouched.
    }
  },
})
