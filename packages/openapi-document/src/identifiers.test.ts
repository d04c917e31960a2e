import { describe, expect, it } from 'vitest';
import { componentTypeName } from './generation-check.js';
import {
  camelCase,
  constantCase,
  isIdentifier,
  kebabCase,
  pascalCase,
  safeIdentifier,
  safeProperty,
  singular,
  snakeCase,
  words,
} from './identifiers.js';

describe('case conversion', () => {
  it.each([
    [
      'loginAuthConnection',
      'loginAuthConnection',
      'LoginAuthConnection',
      'login_auth_connection',
      'login-auth-connection',
    ],
    ['id_or_name', 'idOrName', 'IdOrName', 'id_or_name', 'id-or-name'],
    ['Widget-Item', 'widgetItem', 'WidgetItem', 'widget_item', 'widget-item'],
    ['v1.Widget', 'v1Widget', 'V1Widget', 'v1_widget', 'v1-widget'],
    ['HTTPServer', 'httpServer', 'HTTPServer', 'http_server', 'http-server'],
    ['APIError', 'apiError', 'APIError', 'api_error', 'api-error'],
    ['профили браузера', 'профилиБраузера', 'ПрофилиБраузера', 'профили_браузера', 'профили-браузера'],
  ])('%s', (text, camel, pascal, snake, kebab) => {
    expect([camelCase(text), pascalCase(text), snakeCase(text), kebabCase(text)]).toEqual([
      camel,
      pascal,
      snake,
      kebab,
    ]);
  });

  it('separates at anything not a letter or a digit, and drops it', () => {
    expect(words('../../x')).toEqual(['x']);
    expect(words('—')).toEqual([]);
    expect(constantCase('auth connections')).toBe('AUTH_CONNECTIONS');
  });

  it('singularises the last word of a noun', () => {
    expect(['profiles', 'proxies', 'connections', 'auth_connections', 'browser'].map(singular)).toEqual([
      'profile',
      'proxy',
      'connection',
      'auth_connection',
      'browser',
    ]);
  });
});

describe('safeIdentifier', () => {
  it.each([
    ['delete', 'delete_'],
    ['constructor', 'constructor_'],
    ['__proto__', '__proto___'],
    ['toString', 'toString_'],
    ['hasOwnProperty', 'hasOwnProperty_'],
    ['valueOf', 'valueOf_'],
    ['Object', 'Object_'],
    ['2fa', '_2fa'],
    ['rename', 'rename'],
    ['', ''],
  ])('%j → %j', (name, safe) => {
    expect(safeIdentifier(name)).toBe(safe);
    if (safe !== '') expect(isIdentifier(safe)).toBe(true);
  });

  it('tells identifiers from other text', () => {
    expect(['a-b', '1a', 'a.b', ''].map(isIdentifier)).toEqual([false, false, false, false]);
    expect(['профиль', '$a', '_1'].map(isIdentifier)).toEqual([true, true, true]);
  });
});

describe('safeProperty', () => {
  it('keeps reserved words, which are fine as properties, and renames what objects inherit', () => {
    expect(['delete', 'constructor', '__proto__', '2fa', 'logs'].map(safeProperty)).toEqual([
      'delete',
      'constructor_',
      '__proto___',
      '_2fa',
      'logs',
    ]);
  });
});

describe('componentTypeName', () => {
  it('keeps an identifier (Error, APIError), and makes a type name of anything else', () => {
    expect(
      ['Profile', 'Error', 'APIError', 'Widget-Item', 'v1.Widget', 'string', '2fa', '$defs'].map(componentTypeName),
    ).toEqual(['Profile', 'Error', 'APIError', 'WidgetItem', 'V1Widget', 'String', '_2fa', 'Defs']);
  });
});
