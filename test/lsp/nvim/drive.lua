-- Drives one editing session for test/lsp/nvim_test.py, as a user would: Neovim opens the
-- file given on its command line, test/lsp/nvim/init.lua (the setup docs/EDITORS.md shows)
-- starts `jobspec lsp` for it, and this script, loaded with --cmd before that, waits for
-- the diagnostics, then (with JOBSPEC_NVIM_FIX=LINE:COL) puts the cursor there and runs
-- Neovim's own vim.lsp.buf.code_action(), choosing the first quick fix where a user would
-- pick from the menu, waits for the edit and the diagnostics published after it, and
-- writes the file; then it stops the server (shutdown, exit). Everything seen goes as JSON
-- to JOBSPEC_NVIM_OUT; then Neovim quits.
--
-- Before the fix, with JOBSPEC_NVIM_HOVER=LINE:COL it runs vim.lsp.buf.hover() there and
-- keeps what the floating window shows, and with JOBSPEC_NVIM_COMPLETE=LINE:COL it sends
-- the textDocument/completion request vim.lsp.omnifunc sends and keeps the labels.
--
-- Environment: JOBSPEC_NVIM_OUT (required), JOBSPEC_NVIM_FIX, JOBSPEC_NVIM_HOVER,
-- JOBSPEC_NVIM_COMPLETE (each LINE:COL, from 1), JOBSPEC_NVIM_WAIT_MS (the longest wait
-- for each step; 10000).

local out_path = assert(vim.env.JOBSPEC_NVIM_OUT, 'JOBSPEC_NVIM_OUT is not set')
local fix_at = vim.env.JOBSPEC_NVIM_FIX
local hover_at = vim.env.JOBSPEC_NVIM_HOVER
local complete_at = vim.env.JOBSPEC_NVIM_COMPLETE
local wait_ms = tonumber(vim.env.JOBSPEC_NVIM_WAIT_MS or '10000')

local result = {
  nvim = tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch,
  timeouts = {},
  notices = {},
  publishes = {},
}

local severities = { 'error', 'warning', 'information', 'hint' }

-- Every textDocument/publishDiagnostics, counted, then handled as Neovim handles it.
local published = 0
local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, params, ctx, config)
  publish(err, params, ctx, config)
  published = published + 1
  table.insert(result.publishes, {
    uri = params and params.uri,
    version = params and params.version,
    count = params and params.diagnostics and #params.diagnostics,
  })
end

-- How the server exits: it is stopped (shutdown, exit) before Neovim quits.
local start_client = vim.lsp.start_client
vim.lsp.start_client = function(config)
  local on_exit = config.on_exit
  config.on_exit = function(code, signal, client_id)
    result.exit = { code = code, signal = signal }
    if on_exit then
      on_exit(code, signal, client_id)
    end
  end
  return start_client(config)
end

-- What Neovim would show the user (No code actions available, errors, ...).
local no_actions = false
vim.notify = function(message, level)
  table.insert(result.notices, { message = tostring(message), level = level })
  no_actions = no_actions or tostring(message):find('No code actions') ~= nil
end

local function wait(what, condition)
  if vim.wait(wait_ms, condition, 20) then
    return true
  end
  table.insert(result.timeouts, what)
  return false
end

local function diagnostics(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(found, {
      code = d.code,
      line = d.lnum + 1,
      col = d.col + 1,
      end_line = d.end_lnum and d.end_lnum + 1,
      end_col = d.end_col and d.end_col + 1,
      message = d.message,
      severity = severities[d.severity],
      source = d.source,
    })
  end
  table.sort(found, function(a, b)
    return a.line < b.line or (a.line == b.line and a.col < b.col)
  end)
  return found
end

-- Puts the cursor at "LINE:COL" (from 1).
local function cursor(at)
  local line, col = at:match('^(%d+):(%d+)$')
  vim.api.nvim_win_set_cursor(0, { tonumber(line), tonumber(col) - 1 })
end

local function first_client(bufnr)
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    return client
  end
end

local function session()
  local bufnr = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[bufnr].filetype
  result.uri = vim.uri_from_bufnr(bufnr)

  if not wait('attach', function()
    local client = first_client(bufnr)
    return client ~= nil and client.initialized
  end) then
    return
  end
  local client = first_client(bufnr)
  result.client = client.name
  local caps = client.server_capabilities or {}
  result.capabilities = {
    codeAction = caps.codeActionProvider ~= nil and caps.codeActionProvider ~= false,
    hover = caps.hoverProvider ~= nil and caps.hoverProvider ~= false,
    completion = caps.completionProvider ~= nil,
  }

  if not wait('diagnostics', function() return published > 0 end) then
    return
  end
  result.diagnostics = diagnostics(bufnr)

  if hover_at then
    -- vim.lsp.buf.hover() (K): what the floating window it opens shows.
    cursor(hover_at)
    vim.lsp.buf.hover()
    local function float()
      for _, win in ipairs(vim.api.nvim_list_wins()) do
        if vim.api.nvim_win_get_config(win).relative ~= '' then
          return win
        end
      end
    end
    if wait('hover', function() return float() ~= nil end) then
      local lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float()), 0, -1, false)
      result.hover = table.concat(lines, '\n')
      vim.api.nvim_win_close(float(), true)
    end
  end

  if complete_at then
    -- What vim.lsp.omnifunc (CTRL-X CTRL-O) asks for, with the same request.
    cursor(complete_at)
    local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/completion',
      vim.lsp.util.make_position_params(), wait_ms)
    result.completion = {}
    for _, response in pairs(responses or {}) do
      local items = response.result and (response.result.items or response.result) or {}
      for _, item in ipairs(items) do
        table.insert(result.completion, item.label)
      end
    end
  end

  if not fix_at then
    return
  end

  cursor(fix_at)
  -- The menu vim.lsp.buf.code_action() shows: pick the first quick fix, as a user would.
  result.actions = {}
  local offered = false
  vim.ui.select = function(items, _, on_choice)
    offered = true
    local choice = nil
    for _, item in ipairs(items) do
      local action = item.action or item[2] -- 0.10+: {action=, ctx=}; before: {client_id, action}
      table.insert(result.actions, { title = action.title, kind = action.kind })
      if choice == nil and action.kind == 'quickfix' then
        choice = item
        result.chosen = action.title
      end
    end
    on_choice(choice)
  end
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  local function changed() return vim.api.nvim_buf_get_changedtick(bufnr) ~= tick end
  vim.lsp.buf.code_action()
  -- Until the edit is made, or the menu came without a quick fix, or there was no menu.
  if not wait('edit', function()
    return changed() or (offered and result.chosen == nil) or no_actions
  end) or not changed() then
    return
  end
  local seen = published
  wait('diagnostics after the fix', function() return published > seen end)
  result.diagnostics_after = diagnostics(bufnr)
  vim.cmd('write')
  result.written = true
end

vim.api.nvim_create_autocmd('VimEnter', {
  callback = function()
    local ok, err = pcall(session)
    if not ok then
      result.error = tostring(err)
    end
    for _, client in pairs(vim.lsp.get_active_clients()) do
      client.stop()
    end
    wait('the server to exit', function() return result.exit ~= nil end)
    local f = assert(io.open(out_path, 'w'))
    f:write(vim.fn.json_encode(result))
    f:close()
    vim.cmd('qa!')
  end,
})
