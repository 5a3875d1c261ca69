;; jobspec's language server for batch scripts, jobspec files and shape files (eglot)
(require 'eglot)
(define-derived-mode jobspec-shape-mode prog-mode "Shape"
  "Major mode for RFC 46 resource shape files (*.shape).")
(add-to-list 'auto-mode-alist '("\\.shape\\'" . jobspec-shape-mode))
(add-to-list 'eglot-server-programs
             '((sh-mode yaml-mode json-mode js-json-mode jobspec-shape-mode)
               . ("jobspec" "lsp")))
(dolist (hook '(sh-mode-hook yaml-mode-hook json-mode-hook js-json-mode-hook
                jobspec-shape-mode-hook))
  (add-hook hook #'eglot-ensure))
