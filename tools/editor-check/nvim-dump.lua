-- After 3 s, writes the buffer's diagnostics (LINE:COLUMN CODE MESSAGE,
-- 1-based, Neovim's byte columns) to $OUT and quits.
vim.defer_fn(function()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(out, string.format('%d:%d %s %s', d.lnum + 1, d.col + 1, d.code or '', d.message))
  end
  vim.fn.writefile(out, os.getenv('OUT'))
  vim.cmd('qa!')
end, 3000)
