package main

const usage = `qsh — a bash-like shell with an AI assistant on ? lines

Usage:
  qsh                          interactive shell (when stdin is a terminal)
  qsh -c STRING [NAME [ARG…]]  run STRING; NAME becomes $0, ARGs $1…
  qsh FILE [ARG…]              run the script FILE
  qsh < FILE                   run the commands read from stdin
  qsh --classify [--json] [--] [COMMAND…]
                               classify each COMMAND (or each stdin line) as
                               safe, dev, dangerous or blocked:
                               CLASS<TAB>COMMAND<TAB>REASON per command
  qsh --json -c '? QUESTION'   headless: the turn's events as JSON lines on
                               stdout; nobody is asked to confirm (see below)
  qsh --help | --version | --config

Options:
  -c          read commands from the first argument
  -i          interactive, even when stdin is not a terminal
  -l, --login login shell: source /etc/profile, then the first of
              ~/.qsh_profile and ~/.profile (also when argv[0] starts with -)
  -s          read commands from stdin
  -abefhkmnptuvxBCEHPT, -o NAME
              set's options (+ turns them off), e.g. -eu -o pipefail
  -O NAME     a shopt option (+O turns it off)
  --norc      do not read ~/.qshrc; --rcfile FILE reads FILE instead
  --noprofile a login shell reads no profile
  --posix     set -o posix (bash's POSIX mode)
  --config    print every configuration variable with its value and default
              (secrets masked)
  --version   print the version

Interactive shells also source ~/.qshrc. An error in a startup file is
printed as file:line: message and the shell goes on.

The assistant:
  A line whose first non-blank character is ? goes to the assistant, in the
  interactive shell and in -c strings (script files are plain shell):
    ? why is this build failing
    ?                  a bare ? explains the last command's failure (read-only)
    ?? DESCRIPTION     suggest mode: one command, asked for without tools, put
                       on your prompt line with the classifier's verdict above
                       it; nothing runs until you press Enter (under -c it is
                       printed); a bare ?? proposes the fix of the last command
    ? /reset           start a new conversation
    ? /status          show provider, model and conversation state
    ? /model NAME      switch the model
    ? /context         what the next question would send (nothing is sent)
    ? /permissions     what you allowed with a (session) and A (this project); revoke N, clear
    ? /resume [N]      list saved conversations, or continue number N
    ? /export [FILE]   write this conversation as Markdown
  A line typed with a leading space stays out of the history and of what
  questions send (HISTCONTROL and HISTIGNORE work as in bash).
  To run a command whose name begins with ?, write \?… or ./?….
  The assistant is the program qsh-assistant, installed beside qsh; the
  first ? of a session starts it and it lives until the shell exits.
  Ctrl-C cancels a turn. Tools (filesystem, execute_command, web_search, MCP
  servers) ask before doing anything sensitive: y runs once, n refuses,
  a allows the same kind of call for the session, A always in this project
  (saved in $XDG_CONFIG_HOME/qsh/permissions), e puts the command on your
  prompt line (or a file's new content in $VISUAL/$EDITOR) to edit yourself.

  Headless (qsh --json -c '? …', for scripts and CI): stdout gets one JSON
  object a line: {"type": "text" | "tool_call" (with "class" and "decision")
  | "tool_result" | "note" | "suggestion" | "usage" | "end", …}. With nobody
  to confirm, only calls that need no confirmation run: safe ones, and what
  QSH_AI_TOOLS_CONFIRM=yolo or a saved A rule allows; the rest are refused
  and the model is told why. The ? line's exit status (and qsh's, when it is
  the last line) says how the turn ended:
    0    answered, every call it made ran
    1    the model or the assistant failed (no key, HTTP error, timeout)
    2    bad usage (--json without -c)
    3    a call was refused (it needed a confirmation, or is blocked)
    4    stopped by a limit: QSH_AI_TOOLS_MAX_ITER, QSH_AI_BUDGET_TOKENS,
         a model that loops
    130  interrupted (SIGINT)

  Set up a provider with one of:
    ANTHROPIC_API_KEY=…        Anthropic
    OPENAI_API_KEY=…           OpenAI (OPENAI_BASE_URL or QSH_AI_BASE_URL for
                               compatible servers: LM Studio, vLLM, OpenRouter…)
    OLLAMA_HOST=http://…:11434 a local Ollama
  QSH_AI_PROVIDER (auto, openai, anthropic, ollama) and QSH_AI_MODEL choose
  explicitly.

Environment (see qsh --config for all of them and their defaults):
  QSH_HISTFILE       history file ($XDG_STATE_HOME/qsh/history)
  QSH_HISTSIZE       history entries kept (50000)
  QSH_CAPTURE        record the tail of each command's output for the
                     assistant (true)
  QSH_AI_PROVIDER, QSH_AI_MODEL, QSH_AI_BASE_URL, QSH_AI_API_KEY,
  QSH_AI_TIMEOUT, QSH_AI_TOOL_PROTOCOL, QSH_AI_TOOLS_FS, QSH_AI_TOOLS_EXEC,
  QSH_AI_TOOLS_WEB, QSH_AI_TOOLS_MCP, QSH_AI_MCP_CONFIG, QSH_AI_PERMISSIONS,
  QSH_AI_TOOLS_CONFIRM, QSH_AI_TOOLS_MAX_ITER, QSH_AI_FS_MAX_SIZE, QSH_AI_FS_WRITE,
  QSH_AI_EXEC_TIMEOUT, QSH_AI_EXEC_MAX_OUTPUT, QSH_AI_FS_POST_EDIT,
  QSH_AI_EXEC_ALLOWED_ONLY, QSH_AI_DRY_RUN, QSH_AI_WEB_PROVIDER,
  QSH_AI_WEB_BASE_URL, QSH_AI_WEB_MAX_RESULTS, QSH_AI_CONTEXT, QSH_AI_HISTORY,
  QSH_AI_BUDGET_TOKENS, QSH_AI_PRICE_IN, QSH_AI_PRICE_OUT,
  QSH_AI_KEEP_CONVERSATIONS, QSH_AI_MAX_OUTPUT_TOKENS, QSH_AI_CONTEXT_TOKENS,
  QSH_AI_HOOK_PRE_TOOL, QSH_AI_HOOK_POST_TOOL, QSH_AI_HOOK_TURN_END (your
  programs before a tool call, which may veto or rewrite it, after it, and
  at a turn's end: a JSON object on stdin), QSH_AI_HOOK_TIMEOUT
  A bad value prints one line naming the variable; its default is used.

Keys: emacs editing, Ctrl-R history search, Tab completion, Ctrl-C clears
the line or interrupts the running command, Ctrl-D on an empty line exits.
Ctrl-Z stops the running program (jobs, fg, bg, kill %1, as in bash).
`
