// tinylingo OpenCode plugin. Written by `tinylingo install opencode`; `tinylingo uninstall`
// removes it (this first line is how it knows the file is its own, so keep it).
//
// Before a user message reaches the model, the plugin gives the message's text to
// `tinylingo hook opencode` and adds what it prints (the explanations of the recorded terms the
// message mentions) as one synthetic text part. No hit, no part. Any failure leaves the message
// exactly as it was: a memory aid must never cost the user their message.
//
// node:child_process works the same under Bun (OpenCode's runtime) and Node.
import { spawnSync } from "node:child_process"

// tinylingo's scripts link to its binary: upgrades of the binary need no new install.
const TINYLINGO = "__TINYLINGO_BINARY__"
// The hook answers in milliseconds; this only bounds a stuck one (the smart matcher's own
// timeout is 3 s by default).
const TIMEOUT_MS = 10000

// What the user typed: their text parts, not parts other plugins or OpenCode added.
function userText(parts) {
  return parts
    .filter((p) => p && p.type === "text" && !p.synthetic && !p.ignored && typeof p.text === "string")
    .map((p) => p.text)
    .join("\n")
}

// The block for `prompt`, or "" for no hit and for any failure.
function lookUp(prompt, sessionID) {
  const run = spawnSync(TINYLINGO, ["hook", "opencode"], {
    input: JSON.stringify({ prompt, sessionID }),
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

export const TinylingoPlugin = async () => ({
  "chat.message": async (input, output) => {
    try {
      const parts = output && output.parts
      if (!Array.isArray(parts)) return
      const prompt = userText(parts)
      if (prompt === "") return
      const message = output.message || {}
      const sessionID = (input && input.sessionID) || message.sessionID || ""
      const block = lookUp(prompt, sessionID)
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
