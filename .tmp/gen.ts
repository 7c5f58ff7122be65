import { messageJsonSchema } from '../src/message/json-schema.js';
console.log(JSON.stringify(messageJsonSchema(), (k, v) => (k === 'pattern' && v.length > 200 ? v.slice(0, 60) + '…' : k === 'enum' && v.length > 20 ? v.length : v), 1));
