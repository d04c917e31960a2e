import { describeGeneratedCases } from '../harness/generated-cases.js';

describeGeneratedCases('loginAuthConnection');
