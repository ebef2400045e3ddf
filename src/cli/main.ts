#!/usr/bin/env node
import { processIo } from './io.js'
import { reportFailure, runCli } from './run-cli.js'

const io = processIo()
// An error thrown outside the command's promise (a timer, an event handler) would end the
// process with Node's stack trace: it is reported the same way, and ends the process.
process.on('uncaughtException', (error) => {
  process.exitCode = reportFailure(error, io)
  process.exit()
})
void runCli(process.argv.slice(2), io).then((code) => {
  // A failed write to stdout (not a closed pipe) has set 1 already.
  if (code !== 0 || process.exitCode === undefined) process.exitCode = code
})
