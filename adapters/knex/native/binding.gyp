{
  "targets": [
    {
      "target_name": "statement_timeout",
      "type": "loadable_module",
      "sources": ["statement-timeout.c"],
      "include_dirs": ["<!(node -p \"require('path').join(require('path').dirname(require.resolve('better-sqlite3/package.json')), 'deps', 'sqlite3')\")"]
    }
  ]
}
