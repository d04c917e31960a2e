import { describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from './command-line.js';

function refusal(argv: string[]): string {
  try {
    parseCommandLine(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`no UsageError for ${argv.join(' ')}`);
}

describe('parseCommandLine', () => {
  it('reads the options of Stainless-generated servers, = or a space before the value, repeated where they add up', () => {
    expect(
      parseCommandLine([
        '--tools=dynamic',
        '--resource=profiles*',
        '--resource',
        'auth.connections',
        '--operation=read',
        '--tool',
        'rename_profile',
      ]),
    ).toEqual({
      action: 'serve',
      choice: {
        mode: 'dynamic',
        resources: ['profiles*', 'auth.connections'],
        operations: ['read'],
        tools: ['rename_profile'],
      },
    });
    expect(parseCommandLine([])).toEqual({
      action: 'serve',
      choice: { mode: undefined, resources: [], operations: [], tools: [] },
    });
  });

  it('answers --help and --version first, whatever else the line holds', () => {
    expect(parseCommandLine(['--tools=zz', '--help'])).toEqual({ action: 'help' });
    expect(parseCommandLine(['-h'])).toEqual({ action: 'help' });
    expect(parseCommandLine(['--zz', '-V'])).toEqual({ action: 'version' });
  });

  it('refuses a value an option does not take, naming the option and the values it takes', () => {
    expect(refusal(['--tools=some'])).toBe('--tools=some is not allowed: --tools takes all or dynamic');
    expect(refusal(['--tools'])).toBe('--tools needs a value: --tools takes all or dynamic');
    expect(refusal(['--tools', '--resource=profiles'])).toBe('--tools needs a value: --tools takes all or dynamic');
    expect(refusal(['--tools='])).toBe('--tools needs a value: --tools takes all or dynamic');
    expect(refusal(['--operation=delete'])).toBe('--operation=delete is not allowed: --operation takes read or write');
    expect(refusal(['--operation=READ'])).toBe('--operation=READ is not allowed: --operation takes read or write');
    expect(refusal(['--tools=all', '--tools=dynamic'])).toBe(
      '--tools is given twice: it takes one value, all or dynamic',
    );
  });

  it('refuses an unknown option or a positional argument, naming it and the options there are', () => {
    const options = 'the options are --tools, --resource, --operation, --tool, --help and --version';
    expect(refusal(['--port', '3'])).toBe(`unknown argument "--port": ${options}`);
    expect(refusal(['profiles'])).toBe(`unknown argument "profiles": ${options}`);
    expect(refusal(['-x'])).toBe(`unknown argument "-x": ${options}`);
  });

  it('leaves an empty --resource or --tool to the choice, which names what there is', () => {
    expect(parseCommandLine(['--resource', '--tool='])).toMatchObject({ choice: { resources: [''], tools: [''] } });
    expect(parseCommandLine(['--tool', '--resource', 'x'])).toMatchObject({
      choice: { resources: ['x'], tools: [''] },
    });
  });
});
