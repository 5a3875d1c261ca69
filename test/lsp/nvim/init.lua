-- jobspec's language server for batch scripts, jobspec files and shape files (Neovim 0.7+):
-- one server for every such buffer, started with the first.
local jobspec_client = nil
local function jobspec_lsp(args)
  if not (jobspec_client and vim.lsp.get_client_by_id(jobspec_client)) then
    jobspec_client = vim.lsp.start_client {
      name = 'jobspec',
      cmd = { 'jobspec', 'lsp' },
      root_dir = vim.fn.getcwd(),
    }
  end
  if jobspec_client then
    vim.lsp.buf_attach_client(args.buf, jobspec_client)
    vim.bo[args.buf].omnifunc = 'v:lua.vim.lsp.omnifunc' -- completion with CTRL-X CTRL-O
  end
end
vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'sh', 'yaml', 'json' },
  callback = jobspec_lsp,
})
vim.api.nvim_create_autocmd({ 'BufNewFile', 'BufRead' }, {
  pattern = '*.shape',
  callback = jobspec_lsp,
})
